import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * The required members of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) as a JSON Schema, for the tests:
 * every object the spec lists with the members it marks required, types as it gives them. Extra members are allowed
 * (custom `_` fields, `comment`).
 */
const nameValue = {
  type: 'object',
  required: ['name', 'value'],
  properties: { name: { type: 'string' }, value: { type: 'string' } },
};
const list = (items: object) => ({ type: 'array', items });

const HAR_SCHEMA = {
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['version', 'creator', 'entries'],
      properties: {
        version: { const: '1.2' },
        creator: {
          type: 'object',
          required: ['name', 'version'],
          properties: { name: { type: 'string' }, version: { type: 'string' } },
        },
        pages: { type: 'array' },
        entries: list({
          type: 'object',
          required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
          properties: {
            startedDateTime: {
              type: 'string',
              pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)$',
            },
            time: { type: 'number', minimum: 0 },
            request: {
              type: 'object',
              required: [
                'method',
                'url',
                'httpVersion',
                'cookies',
                'headers',
                'queryString',
                'headersSize',
                'bodySize',
              ],
              properties: {
                method: { type: 'string' },
                url: { type: 'string', pattern: '^https?://' },
                httpVersion: { type: 'string' },
                cookies: list(nameValue),
                headers: list(nameValue),
                queryString: list(nameValue),
                postData: {
                  type: 'object',
                  required: ['mimeType'],
                  properties: { mimeType: { type: 'string' }, text: { type: 'string' }, params: { type: 'array' } },
                },
                headersSize: { type: 'integer' },
                bodySize: { type: 'integer' },
              },
            },
            response: {
              type: 'object',
              required: [
                'status',
                'statusText',
                'httpVersion',
                'cookies',
                'headers',
                'content',
                'redirectURL',
                'headersSize',
                'bodySize',
              ],
              properties: {
                status: { type: 'integer' },
                statusText: { type: 'string' },
                httpVersion: { type: 'string' },
                cookies: list(nameValue),
                headers: list(nameValue),
                content: {
                  type: 'object',
                  required: ['size', 'mimeType'],
                  properties: {
                    size: { type: 'integer' },
                    mimeType: { type: 'string' },
                    text: { type: 'string' },
                    encoding: { type: 'string' },
                  },
                },
                redirectURL: { type: 'string' },
                headersSize: { type: 'integer' },
                bodySize: { type: 'integer' },
              },
            },
            cache: { type: 'object' },
            timings: {
              type: 'object',
              required: ['send', 'wait', 'receive'],
              properties: {
                send: { type: 'number', minimum: -1 },
                wait: { type: 'number', minimum: -1 },
                receive: { type: 'number', minimum: -1 },
              },
            },
          },
        }),
      },
    },
  },
};

const validate = new Ajv2020({ allErrors: true, strict: false }).compile(HAR_SCHEMA);

/** The HAR 1.2 shape errors of a parsed document (none: valid). */
export function harErrors(doc: unknown): string[] {
  if (validate(doc)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
