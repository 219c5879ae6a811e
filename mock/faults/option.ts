import { FAULTS, isFault, type FaultName } from './registry.js';

/**
 * The `--fault` option: which planted faults a mock runs with. Declared here, not in mock/options.ts, so that the
 * faithful mock's own modules never name a fault; `MockOptions` extends this interface and the composition root
 * (mock/server.ts) is the only reader.
 */
export interface PlantedFaultsOption {
  /** Planted faults (empty: the faithful mock). */
  faults: ReadonlySet<FaultName>;
}

/** The default: no fault planted. A fresh set on every call, like every other default option. */
export function noPlantedFaults(): PlantedFaultsOption {
  return { faults: new Set() };
}

/** Every fault name, comma-separated, for usage lines and error messages. */
export const FAULT_NAMES = Object.keys(FAULTS).join(', ');

/**
 * Parses one `--fault` value: a fault name or a comma-separated list of them, added to those of earlier `--fault`
 * flags (the flag is repeatable). An unknown name is an error value naming every known fault.
 */
export function parseFaults(
  text: string,
  previous: readonly FaultName[] = [],
): { ok: true; value: FaultName[] } | { ok: false; error: string } {
  const names = text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const unknown = names.find((name) => !isFault(name));
  if (unknown !== undefined) return { ok: false, error: `unknown fault "${unknown}"; known: ${FAULT_NAMES}` };
  return { ok: true, value: [...previous, ...(names as FaultName[])] };
}
