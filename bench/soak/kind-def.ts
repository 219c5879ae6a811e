import type { Traffic } from './sender.js';
import type { SoakTenant } from './tenant.js';

/** One kind of traffic: a weight and what it sends (one or more requests). */
export interface KindDef {
  readonly weight: number;
  run(traffic: Traffic, t: SoakTenant): Promise<void>;
}

/** A random item of a list. */
export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
export const enc = encodeURIComponent;
