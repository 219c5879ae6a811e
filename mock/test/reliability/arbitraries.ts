/** The random and adversarial inputs of the fuzz tests (fuzz.e2e.test.ts): path segments, bodies, values, list parameters. */
import fc from 'fast-check';
import { EVENT_CATALOG } from '../../../spec/events/catalog.js';
import { FILTER_OPERATORS } from '../../../spec/lists/operators.js';
import type { OperationDef } from '../../../spec/operations/index.js';
import { encodeSegment, validator } from './support.js';
import { binaryString } from '../../../test/support/arbitraries.js';

export const method = (op: OperationDef) => op.method.toUpperCase();
export const schemaKeys = (schema: string): string[] =>
  Object.keys(
    (validator.document.components?.schemas?.[schema] as { properties?: Record<string, unknown> } | undefined)
      ?.properties ?? {},
  );

/** Path segments that try traversal, encoded slashes, NUL, bad escapes, overlong and odd Unicode. */
export const ADVERSARIAL_SEGMENTS = [
  '..%2F..%2Fetc',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '..%5C..%5Cwindows',
  '%2e%2e',
  '%2E%2E%2F',
  '..',
  '.',
  '%2F',
  '%00',
  'a%00b',
  '%0A%0D',
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%ED%A0%80',
  '%FF%FE',
  '%F0%9F%98%80',
  encodeURIComponent('\u202eevil'),
  encodeURIComponent('\u200b'),
  encodeURIComponent('שלום'),
  encodeURIComponent('\ufeff'),
  'a'.repeat(200),
  'a'.repeat(201),
  'a'.repeat(999),
  'a'.repeat(1001),
  'a'.repeat(5000),
  encodeURIComponent('%'.repeat(300)),
  '__proto__',
  'constructor',
  'null',
  'undefined',
  '-1',
  '0',
  '1e999',
  "'%20OR%201=1--",
  '%3Cscript%3E',
  '$%7Bjndi:ldap%7D',
  'subscriptions',
  'attempts',
  'retry',
];

const asciiSegment = fc.string({
  unit: fc.constantFrom(
    ..."!$&'()*+,-.0123456789:;=@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~".split(''),
  ),
  minLength: 1,
  maxLength: 40,
});
export const segmentArb = fc.oneof(
  fc.constantFrom(...ADVERSARIAL_SEGMENTS),
  binaryString({ minLength: 1, maxLength: 30 }).map(encodeSegment),
  asciiSegment,
);

/** Bodies that are not JSON objects of the schema. */
export const ADVERSARIAL_BODIES = [
  '',
  ' ',
  '\ufeff{}',
  'null',
  'true',
  '0',
  '"text"',
  '[]',
  '{}',
  '{',
  '}',
  '{"a":}',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  'NaN',
  'Infinity',
  '1e999',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"\\ud800":"\\udfff"}',
  '"\\ud800"',
  '{"a":"\\u0000\\u0001\\u001f"}',
  '\u0000',
  '{"a":"\u202e\u200f\u061c"}',
  '['.repeat(10_000),
  `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
  `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
];

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/JSON',
  'application/problem+json',
  'application/vnd.acme+json; version=2',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/octet-stream',
];

/** Values of the wrong type (or of the right type but out of range) for any field. */
export const wrongValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  binaryString({ maxLength: 50 }),
  fc.constantFrom(
    null,
    true,
    false,
    -1,
    0,
    1.5,
    -0.000001,
    1e308,
    Number.MAX_SAFE_INTEGER + 2,
    '',
    ' ',
    '\u0000',
    '\ud800',
    '\u202e',
    [],
    {},
    [1, 2],
    { a: 1 },
  ),
);

/** Strings for the string fields of bodies: unicode, control characters, RTL, lone surrogates. */
export const textValue = fc.oneof(
  binaryString({ maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udfff\ud800',
    '\u202eabc',
    '\u200f\u061c',
    '\ufeff',
    '\r\n',
    'x'.repeat(201),
    'x'.repeat(2001),
  ),
);

/** Endpoints a fuzzed subscription may name: only loopback literals (never a lookup or a request off the machine) and invalid ones. */
export const endpointValue = (receiverUrl: string) =>
  fc.constantFrom(
    receiverUrl,
    'http://127.0.0.1:1/hook',
    'ftp://127.0.0.1/',
    'http://user:pw@127.0.0.1/',
    'http://127.0.0.1/#frag',
    'not a url',
    '',
    '/relative',
    'http://',
    'javascript:alert(1)',
    `http://127.0.0.1/${'a'.repeat(2100)}`,
  );

export const EVENT_NAMES = EVENT_CATALOG.map((e) => e.eventName);

/** Query values for pageNumber and pageSize. */
const PAGE_VALUES = [
  '',
  '-1',
  '0',
  '1',
  '1000',
  '1001',
  '1.5',
  '1e3',
  '0x10',
  ' 1',
  '1 ',
  '+1',
  '01',
  '٣',
  '99999999999999999999',
  '9007199254740993',
  'NaN',
  'Infinity',
  'null',
  'true',
  '[]',
  '%00',
  '-0',
  '1,2',
];
export const pageArb = fc.oneof(
  fc.constantFrom(...PAGE_VALUES),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.double().map(String),
  binaryString({ maxLength: 8 }),
);

export function filterArb(fields: readonly string[]) {
  const field = fc.oneof(
    fc.constantFrom(...fields),
    fc.constantFrom('unknown', 'Id', '', '__proto__', 'a.b', 'name]', '['),
    fc.string({ maxLength: 8 }),
  );
  const operator = fc.oneof(
    fc.constantFrom(...FILTER_OPERATORS),
    fc.constantFrom('equals', 'Eq', '', 'Contains]', 'IsNull ', '[Equals'),
    fc.string({ maxLength: 8 }),
  );
  const value = fc.oneof(
    binaryString({ maxLength: 20 }),
    fc.constantFrom(
      '',
      '"',
      '"a\\"b"',
      '"\\x"',
      'null',
      '2025-01-01',
      '2025-13-45T99:99:99Z',
      '1e999',
      '-0',
      'true',
      '&&',
      '||',
      ')',
      '(',
    ),
  );
  const condition = fc.tuple(field, operator, value).map(([f, o, v]) => `${f}[${o}]${v}`);
  return fc.oneof(
    condition,
    fc
      .array(condition, { minLength: 2, maxLength: 4 })
      .chain((cs) => fc.constantFrom(' && ', ' || ', '&&', ' & ', ' AND ').map((j) => cs.join(j))),
    condition.map((c) => `(${c}`),
    condition.map((c) => `((${c}))`),
    binaryString({ maxLength: 60 }),
    fc.constantFrom(
      '(',
      ')',
      '()',
      '[]',
      '&&',
      '||',
      `${'('.repeat(100)}id[IsNull]${')'.repeat(100)}`,
      '('.repeat(10_000),
    ),
  );
}

export function sortArb(fields: readonly string[]) {
  const one = fc.oneof(
    fc.constantFrom(...fields),
    fc.constantFrom('unknown', '', '-', '--id', '+id', ' id', 'id desc', '__proto__'),
    fc.string({ maxLength: 8 }),
  );
  return fc.oneof(
    fc
      .array(fc.tuple(fc.boolean(), one), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.map(([desc, f]) => `${desc ? '-' : ''}${f}`).join(',')),
    binaryString({ maxLength: 30 }),
  );
}
