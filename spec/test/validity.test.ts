import { validate, compileErrors } from '@readme/openapi-parser';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { committedDocument } from './load.js';

// Both packages are CommonJS; under ESM their named exports sit on the default export.
const { Spectral, Document } = spectralCore as unknown as typeof import('@stoplight/spectral-core');
const { Json } = spectralParsers as unknown as typeof import('@stoplight/spectral-parsers');

describe('the contract document', () => {
  it('is an OpenAPI 3.1 document', () => {
    expect(committedDocument().openapi).toMatch(/^3\.1\.\d+$/);
  });

  it('validates against the OpenAPI 3.1 schema and its extra rules (openapi-parser)', async () => {
    const result = await validate(structuredClone(committedDocument()) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it("has zero errors under Spectral's spectral:oas ruleset", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] } as never);
    const text = readFileSync(fileURLToPath(new URL('../openapi.json', import.meta.url)), 'utf8');
    const results = await spectral.run(new Document(text, Json, 'openapi.json'));
    const errors = results.filter((r) => r.severity === 0).map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`);
    expect(errors).toEqual([]);
  });
});
