import type { TObject, TSchema } from '@sinclair/typebox';
import type { TenantState } from '../store/tenant-state.js';

/**
 * Realistic `data` for a triggered event (`POST /__mock/events`, `opsapi trigger`): identifiers are taken from the
 * tenant's own records where the property names one (SKU, location, lot, purchase order line), so a receiver
 * that reads the current state with the API finds them; other values are generated from the schema.
 */
export function sampleData(schema: TObject, tenant: TenantState, counter: number): Record<string, unknown> {
  const m = tenant.manifest;
  const sku = tenant.skuRecords.get(m.sku.reference)?.item;
  const known: Record<string, unknown> = {
    skuId: sku?.id ?? 'sku',
    skuReference: m.sku.reference,
    locationReference: m.sku.locationReference,
    lotId: m.sku.lotId,
    purchaseOrderId: m.purchaseOrderLine.purchaseOrderId,
    lineId: m.purchaseOrderLine.lineId,
    unitOfMeasureId: m.sku.baseUnitOfMeasureId,
    familyId: sku?.familyId ?? m.deletableFamilyId,
  };
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    out[name] = name in known ? known[name] : generate(name, prop, tenant, counter);
  }
  return out;
}

function generate(name: string, schema: TSchema, tenant: TenantState, counter: number): unknown {
  const variants = (schema.anyOf as TSchema[] | undefined)?.filter((s) => s.type !== 'null');
  if (variants?.[0]) return generate(name, variants[0], tenant, counter);
  switch (schema.type) {
    case 'string':
      if (schema.format === 'date-time') return tenant.nowIso();
      if (name.endsWith('Id')) return `${name.slice(0, -2)}_${tenant.tag}_${String(counter).padStart(6, '0')}`;
      if (name === 'code') return `CODE-${counter}`;
      if (name === 'reason') return 'Shift change';
      return `${name}-${counter}`;
    case 'number':
      return 1 + (counter % 97);
    case 'integer':
      return 1 + (counter % 9);
    case 'boolean':
      return counter % 2 === 0;
    case 'array':
      return ['name'];
    default:
      return null;
  }
}
