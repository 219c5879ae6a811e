import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../operations/index.js';
import { pathTemplateRegex } from '../path-template.js';

describe('a path template as a matcher', () => {
  const stock = pathTemplateRegex('/v1/items/skus/{skuReference}/stock');

  it('matches a path that fills each parameter with one segment', () => {
    expect(stock.test('/v1/items/skus/SKU-1/stock')).toBe(true);
  });

  it('refuses an empty parameter, a parameter spanning a slash, and anything before or after the path', () => {
    expect(stock.test('/v1/items/skus//stock')).toBe(false);
    expect(stock.test('/v1/items/skus/a/b/stock')).toBe(false);
    expect(stock.test('/x/v1/items/skus/a/stock')).toBe(false);
    expect(stock.test('/v1/items/skus/a/stock/')).toBe(false);
  });

  it('takes the literal parts literally (a dot is a dot)', () => {
    const dotted = pathTemplateRegex('/v1/a.b/{id}');
    expect(dotted.test('/v1/a.b/1')).toBe(true);
    expect(dotted.test('/v1/aXb/1')).toBe(false);
  });

  it('matches every operation path of the contract filled with sample values', () => {
    for (const op of OPERATIONS) {
      const filled = op.path.replace(/\{\w+\}/g, 'sample-value');
      expect(pathTemplateRegex(op.path).test(filled), op.path).toBe(true);
    }
  });
});
