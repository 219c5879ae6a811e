import { describe, expect, it } from 'vitest';
import { FAULTS } from '../registry.js';
import { FAULT_NAMES, noPlantedFaults, parseFaults } from '../option.js';

describe('the --fault option', () => {
  it('reads one fault name', () => {
    expect(parseFaults('contains-as-equals')).toEqual({ ok: true, value: ['contains-as-equals'] });
  });

  it('reads a comma-separated list, ignoring spaces and empty entries', () => {
    expect(parseFaults(' auth-401-with-code, ,contains-as-equals ')).toEqual({
      ok: true,
      value: ['auth-401-with-code', 'contains-as-equals'],
    });
  });

  it('adds to the faults of earlier flags, as the flag is repeatable', () => {
    expect(parseFaults('contains-as-equals', ['auth-401-with-code'])).toEqual({
      ok: true,
      value: ['auth-401-with-code', 'contains-as-equals'],
    });
  });

  it('refuses an unknown name with one line naming every known fault', () => {
    const result = parseFaults('contains-as-equals,no-such-fault');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBe(`unknown fault "no-such-fault"; known: ${FAULT_NAMES}`);
    expect(result.error).not.toContain('\n');
    for (const name of Object.keys(FAULTS)) expect(result.error).toContain(name);
  });

  it('defaults to no fault, with a fresh set on every call', () => {
    const a = noPlantedFaults();
    expect(a.faults.size).toBe(0);
    expect(noPlantedFaults().faults).not.toBe(a.faults);
  });
});
