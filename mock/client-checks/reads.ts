import { EVENT_CATALOG, latestVersion } from '../../spec/events/catalog.js';

/**
 * Which operation reads what an event names (Events, point 5: "the receiver then reads the current state with the API
 * using the identifier received"), built from the event catalog: the entity of the name (`Domain.Entity.Action`)
 * and the identifier its data carries. Inferred: the contract has no operation reading one SKU or one asset, so the
 * read is the list filtered on that identifier; events whose entity no operation reads (orders, work orders, ...)
 * are left out of client.reads-after-notification.
 */
const READERS: readonly { entities: readonly string[]; field: string; operationId: string }[] = [
  // A variant is a SKU, and a stock level or a cost is read on its SKU.
  { entities: ['Sku', 'Variant', 'Stock'], field: 'skuReference', operationId: 'listSkus' },
  { entities: ['Asset'], field: 'assetId', operationId: 'listAssets' },
  { entities: ['Family'], field: 'familyId', operationId: 'searchFamilies' },
];

/** How a delivered event is followed by a read: the field of its data naming the entity, and the operation. */
interface EventReader {
  field: string;
  operationId: string;
}

function readerOf(eventName: string, dataFields: readonly string[]): EventReader | undefined {
  const entity = eventName.split('.')[1] ?? '';
  const reader = READERS.find((r) => r.entities.includes(entity) && dataFields.includes(r.field));
  return reader ? { field: reader.field, operationId: reader.operationId } : undefined;
}

/** Event name -> the read that follows it, for every event of the catalog that has one. */
export const EVENT_READS: ReadonlyMap<string, EventReader> = new Map(
  EVENT_CATALOG.flatMap((e) => {
    const reader = readerOf(e.eventName, Object.keys(latestVersion(e).data.properties));
    return reader ? [[e.eventName, reader] as const] : [];
  }),
);
