import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from '../../build.js';
import { DECISION_FORMAT, parseDecisionFile } from '../index.js';

/** A decision file with one good decision, changed by `patch`. */
function file(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    format: DECISION_FORMAT,
    contractVersion: CONTRACT_VERSION,
    target: 'https://ops.example.test',
    date: '2025-03-01T10:00:00Z',
    tool: 'opsapi learn (test)',
    decisions: [decision('text-case', 'sensitive')],
    notObserved: [],
    ...patch,
  };
}

function decision(id: string, observed: unknown): Record<string, unknown> {
  return { id, title: id, inferred: null, observed, differs: true, evidence: [] };
}

/** The message a refused file gets; fails the test when the file is accepted. */
function refusal(value: unknown): string {
  const result = parseDecisionFile(value);
  if (result.ok) throw new Error('the file was accepted');
  return result.error;
}

describe('parseDecisionFile', () => {
  it('accepts a file of this format and contract version', () => {
    const result = parseDecisionFile(file());
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.file.decisions.map((d) => d.observed)).toEqual(['sensitive']);
  });

  it('accepts a file without notObserved, as an empty list', () => {
    const { notObserved: _, ...rest } = file();
    const result = parseDecisionFile(rest);
    expect(result.ok && result.file.notObserved).toEqual([]);
  });

  it('accepts a file of an earlier kit: a default order among the contract fields, no kinds added since', () => {
    const earlier = file({
      decisions: [decision('default-order:listSkus', '-createdAt'), decision('text-case', 'sensitive')],
    });
    expect(parseDecisionFile(earlier).ok).toBe(true);
  });

  it('accepts a default order on a field the contract does not have, or none', () => {
    for (const order of ['label', '-CreatedAt', 'none'])
      expect(parseDecisionFile(file({ decisions: [decision('default-order:listSkus', order)] })).ok, order).toBe(true);
  });

  it.each([
    ['null', null],
    ['an array', [file()]],
    ['a string', 'decisions'],
  ])('refuses %s: not a JSON object', (_what, value) => {
    expect(refusal(value)).toBe('not a JSON object');
  });

  it('refuses another format, naming it and the expected one', () => {
    expect(refusal(file({ format: 'opsapi-decisions/2' }))).toBe(
      'format is "opsapi-decisions/2", expected "opsapi-decisions/1"',
    );
  });

  it('refuses a file learned for another contract version and says to learn again', () => {
    expect(refusal(file({ contractVersion: '0.9.0' }))).toMatch(
      new RegExp(
        `contract version "0\\.9\\.0"; this kit's contract is ${CONTRACT_VERSION.replaceAll('.', '\\.')}.*learn again`,
      ),
    );
  });

  it('refuses decisions that are not an array', () => {
    expect(refusal(file({ decisions: {} }))).toBe('"decisions" is not an array');
  });

  it('refuses a decision without an id, naming its index', () => {
    expect(refusal(file({ decisions: [{ observed: 1 }] }))).toBe('decisions[0] has no id');
  });

  it('refuses a decision the contract does not have, naming it', () => {
    expect(refusal(file({ decisions: [decision('code-status:NO.SUCH.CODE', 400)] }))).toBe(
      'decisions[0]: unknown decision "code-status:NO.SUCH.CODE"',
    );
  });

  it('refuses a decision recorded twice', () => {
    const twice = [decision('text-case', 'sensitive'), decision('text-case', 'insensitive')];
    expect(refusal(file({ decisions: twice }))).toBe('decisions[1]: "text-case" is recorded twice');
  });

  it.each([
    ['code-status:ITEMS.FAMILY.ALREADY_DELETED', 700, /observed must be an integer from 400 to 599/],
    ['success-status:createApiKey', 404, /observed must be an integer from 200 to 299/],
    [
      'retry-delay',
      { header: 'Retry After', unit: 'seconds' },
      /observed must be \{"header": "<name>", "unit": one of/,
    ],
    ['retry-delay', { header: 'Retry-After', unit: 'minutes' }, /observed must be .*http-date/],
    ['other-api-key-with-bearer', 'maybe', /observed must be one of refused, ignored/],
    ['text-case', 'upper', /observed must be one of insensitive, sensitive/],
    ['default-order:listSkus', 'two words', /observed must be a field name, optionally with a leading -/],
    ['problem-media-type', 'text/plain', /observed must be one of application\/problem\+json, application\/json/],
    ['problem-401-type', 'https://example.test/401', /observed must be an address of RFC 9110 section 15\.5\.2/],
    ['api-key-alone', 'sometimes', /observed must be one of accepted, refused/],
    ['null-order', 'middle', /observed must be one of first, last/],
    ['list-form:listSkus', 'table', /observed must be one of envelope, array/],
    ['list-fields:listSkus', [{ name: 'a b', query: 'x', type: 'string', operators: [], sortable: true }], /"query"/],
    ['record-fields:listSkus', { fields: [{ name: 'id', types: ['text'], always: true }] }, /"fields"/],
    ['webhook-event-id', { header: null, field: null }, /not both null/],
    ['webhook-attempt', { success: { field: 'ok', form: 'maybe' }, manual: null }, /"success"/],
    ['permission:listSkus', 'read skus', /observed must be a permission name/],
  ])('refuses %s observed as %j, saying what it must be', (id, observed, says) => {
    const message = refusal(file({ decisions: [decision(id, observed)] }));
    expect(message).toMatch(new RegExp(`^decisions\\[0\\] "${id.replaceAll('.', '\\.')}": `));
    expect(message).toMatch(says);
  });
});
