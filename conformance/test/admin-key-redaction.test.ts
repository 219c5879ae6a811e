import { describe, expect, it } from 'vitest';
import { finish } from '../report/build-report.js';
import { Redactor } from '../wire/redact.js';

const KEY = 'the-admin-key-of-a-shared-mock';

describe("the mock's admin key in what a run records", () => {
  it('is hidden in the recorded request headers', () => {
    expect(new Redactor().headers({ 'X-Admin-Key': KEY, accept: 'application/json' })).toEqual({
      'X-Admin-Key': '<redacted>',
      accept: 'application/json',
    });
  });

  it('is hidden in the options a report shows', () => {
    const report = finish(
      {
        options: { baseUrl: 'http://127.0.0.1:1', adminKey: KEY },
        redactor: new Redactor(),
        mockAdmin: true,
        notes: [],
      },
      [],
      Date.now(),
    );
    expect(report.options.adminKey).toBe('<redacted>');
    expect(JSON.stringify(report)).not.toContain(KEY);
  });
});
