import { listField, type ListFieldTable } from '../../../spec/lists/fields.js';
import { runList } from '../engine.js';
import type { ListQuery } from '../query.js';
import type { ListError } from '../result.js';

/** A small list used by the example-based tests. */
export interface Asset {
  id: string;
  name: string;
  description?: string | null;
  count: number | null;
  createdAt: string;
  lastModifiedAt?: string | null;
  active: boolean;
  status: 'Open' | 'Closed' | 'Pending' | null;
  code: string;
  secret: string;
}

export const FIELDS: ListFieldTable = [
  listField('id', 'string'),
  listField('name', 'string'),
  listField('description', 'string', { nullable: true }),
  listField('count', 'number', { nullable: true }),
  listField('createdAt', 'date'),
  listField('lastModifiedAt', 'date', { nullable: true }),
  listField('active', 'boolean'),
  listField('status', 'enum', { nullable: true, enumValues: ['Open', 'Closed', 'Pending'] }),
  listField('code', 'string', { operators: ['Equals'] }),
  listField('secret', 'string', { filterable: false, sortable: false }),
];

export const ASSETS: Asset[] = [
  {
    id: 'a',
    name: 'Alpha Pump',
    description: 'Primary pump',
    count: 10,
    createdAt: '2024-01-31T10:00:00Z',
    lastModifiedAt: '2024-02-01T00:00:00Z',
    active: true,
    status: 'Open',
    code: 'A1',
    secret: 's',
  },
  {
    id: 'b',
    name: 'beta valve',
    description: null,
    count: -1.5,
    createdAt: '2024-01-31T23:59:59.999Z',
    lastModifiedAt: null,
    active: false,
    status: 'Closed',
    code: 'B2',
    secret: 's',
  },
  {
    id: 'c',
    name: 'Gamma && Delta (x)',
    description: 'has "quotes" and \\ backslash',
    count: 0,
    createdAt: '2024-02-01T00:00:00Z',
    lastModifiedAt: '2024-01-15T08:30:00+02:00',
    active: true,
    status: 'Pending',
    code: 'C3',
    secret: 's',
  },
  {
    id: 'd',
    name: 'delta',
    description: 'pump housing',
    count: null,
    createdAt: '2024-01-30T12:00:00Z',
    active: false,
    status: 'Open',
    code: 'D4',
    secret: 's',
  },
  {
    id: 'e',
    name: 'Épsilon',
    count: 1000,
    createdAt: '2023-12-31T23:00:00-02:00',
    lastModifiedAt: '2024-03-01T00:00:00.000Z',
    active: true,
    status: null,
    code: 'E5',
    secret: 's',
  },
];

/** Ids selected by a query over ASSETS, in result order; throws with the error detail if the query fails. */
export function selectIds(
  query: ListQuery,
  items: readonly Asset[] = ASSETS,
  fields: ListFieldTable = FIELDS,
): string[] {
  const result = runList(items, fields, { pageSize: 1000, ...query });
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.detail}`);
  return result.value.results.map((item) => item.id);
}

/** The error of a query expected to fail. */
export function queryError(
  query: ListQuery,
  items: readonly Asset[] = ASSETS,
  fields: ListFieldTable = FIELDS,
): ListError {
  const result = runList(items, fields, query);
  if (result.ok) throw new Error(`expected an error for ${JSON.stringify(query)}`);
  return result.error;
}
