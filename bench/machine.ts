import { cpus, loadavg, totalmem } from 'node:os';
import type { Machine } from './results.js';

/** 1-minute load average, 2 decimals. */
export function loadAverage(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

export function machine(loadAverageStart: number): Machine {
  const list = cpus();
  return {
    cores: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    totalMemoryMb: Math.round(totalmem() / 1024 / 1024),
    date: new Date().toISOString(),
    loadAverageStart,
    loadAverageEnd: loadAverage(),
  };
}
