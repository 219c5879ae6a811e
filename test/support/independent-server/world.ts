import { createHash } from 'node:crypto';

/**
 * The in-memory records of one organisation, generated deterministically from its code. Every identifier carries a
 * hash of the organisation, so an identifier of one tenant never resolves in another (multi-tenant service).
 */
export interface Unit {
  id: string;
  code: string;
}
export interface StockRow {
  locationReference: string;
  lotId: string;
  quantity: number;
  unitOfMeasureId: string;
  comment: string;
}
export interface Inspection {
  id: string;
  name: string;
  type: 'Simple';
  isMandatory: boolean;
}
export interface Sku {
  id: string;
  reference: string;
  name: string;
  familyCode: string;
  weightKg: number | null;
  isActive: boolean;
  createdAt: string;
  lastModifiedAt: string;
  baseUnitId: string;
  unitIds: string[];
  lotIds: string[];
  inspections: Inspection[];
  stock: StockRow[];
}
export interface Family {
  id: string;
  code: string;
  label: string;
  createdAt: string;
  lastModifiedAt: string;
  deleted: boolean;
}
export interface Asset {
  id: string;
  assetCode: string;
  title: string;
  kind: 'Equipment' | 'Space' | 'Tool';
  createdAt: string;
  lastModifiedAt: string;
  parentId: string | null;
}
type LineStatus = 'Confirmed' | 'Cancelled' | 'Received';
interface PurchaseOrderLine {
  id: string;
  lineNumber: number;
  skuReference: string;
  quantity: number;
  receivedQuantity: number;
  unitOfMeasureId: string;
  status: LineStatus;
  comment: string;
  lastModifiedAt: string;
}
export interface PurchaseOrder {
  id: string;
  code: string;
  lines: PurchaseOrderLine[];
}
export interface World {
  org: string;
  prefix: string;
  units: Unit[];
  locations: string[];
  skus: Sku[];
  families: Family[];
  assets: Asset[];
  purchaseOrders: PurchaseOrder[];
}

const SKU_COUNT = 60;
const FAMILY_COUNT = 12;
/** Families from this index on have no SKUs, so they can be deleted. */
const FIRST_EMPTY_FAMILY = 8;
const ASSET_COUNT = 30;
const ORDER_COUNT = 6;

const UNIT_CODES = ['PCS', 'KG', 'BOX', 'L', 'M', 'DOZ', 'PK10', 'PAL'];
const COLOURS = ['Blue', 'red', 'GREEN', 'Black', 'white', 'Amber', 'grey'];
const MATERIALS = ['Steel', 'oak', 'Brass', 'nylon', 'PVC', 'Copper'];
const NOUNS = ['Bolt', 'bolt', 'Washer', 'Valve', 'hinge', 'Bracket', 'Gasket', 'Cable', 'Panel', 'Spring'];
const FAMILY_LABELS = [
  'Fasteners',
  'fasteners (legacy)',
  'Valves & Fittings',
  'Hinges',
  'Cables and Wires',
  'Panels',
  'springs',
  'Seals & Gaskets',
  'Spare Parts',
  'obsolete Tools',
  'Packaging',
  'Samples',
];
const INSPECTION_NAMES = ['Visual check', 'Dimension check', 'Weight check'];
const ASSET_WORDS: Record<Asset['kind'], string[]> = {
  Space: ['Main Hall', 'north wing', 'Cold Room', 'Yard'],
  Equipment: ['Press Line', 'cnc mill', 'Paint Booth', 'Conveyor'],
  Tool: ['Torque Wrench', 'caliper', 'Drill', 'Forklift'],
};
const LINE_STATUSES: LineStatus[] = ['Confirmed', 'Cancelled', 'Received'];

/** A small seeded generator (mulberry32), so each organisation always gets the same records. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** Distinct creation and modification instants: created every few days, modified some hours later. */
function stamps(random: () => number, count: number, startDay: number): Array<[string, string]> {
  const used = new Set<number>();
  const out: Array<[string, string]> = [];
  for (let i = 0; i < count; i += 1) {
    const created = Date.UTC(2023, 0, startDay) + i * 3 * 86_400_000 + Math.floor(random() * 1440) * 60_000;
    let modified = created + (1 + Math.floor(random() * 900)) * 3_600_000 + Math.floor(random() * 60) * 1000;
    while (used.has(modified)) modified += 1000;
    used.add(modified);
    out.push([new Date(created).toISOString(), new Date(modified).toISOString()]);
  }
  return out;
}

/** Generates the records of an organisation. */
export function generateWorld(org: string): World {
  const digest = createHash('sha256').update(org).digest();
  const prefix = digest.toString('hex').slice(0, 8);
  const random = generator(digest.readUInt32BE(8));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const skuBase = 10_000 + (digest.readUInt32BE(12) % 90_000);

  const units = UNIT_CODES.map((code) => ({ id: `uom_${prefix}_${code.toLowerCase()}`, code }));
  const locations = ['A01', 'A02', 'B01', 'B02', 'C01', 'DOCK'].map((slot) => `LOC-${prefix.slice(0, 4)}-${slot}`);

  const familyStamps = stamps(random, FAMILY_COUNT, 1);
  const families: Family[] = FAMILY_LABELS.map((label, i) => ({
    id: `fam_${prefix}_${pad(i + 1)}`,
    code: `FAM-${pad(i + 1)}`,
    label,
    createdAt: familyStamps[i]![0],
    lastModifiedAt: familyStamps[i]![1],
    deleted: false,
  }));

  const names = new Set<string>();
  const skuStamps = stamps(random, SKU_COUNT, 20);
  const skus: Sku[] = [];
  for (let i = 0; i < SKU_COUNT; i += 1) {
    let name = `${pick(COLOURS)} ${pick(MATERIALS)} ${pick(NOUNS)}`;
    if (names.has(name)) name = `${name} Mk${i}`;
    names.add(name);
    const baseUnit = units[i % 4]!;
    const unitIds = [baseUnit.id];
    // The first SKU always has an alternative unit (the runner's `sku` sample); most others too.
    if (i === 0 || i % 3 !== 2) unitIds.push(units[4 + (i % 3)]!.id);
    const lotIds = [`lot_${prefix}_${pad(i + 1, 3)}_a`];
    if (random() < 0.4) lotIds.push(`lot_${prefix}_${pad(i + 1, 3)}_b`);
    const inspectionCount = 1 + Math.floor(random() * 3);
    const inspections: Inspection[] = INSPECTION_NAMES.slice(0, inspectionCount).map((inspection, k) => ({
      id: `insp_${prefix}_${pad(i + 1, 3)}_${k + 1}`,
      name: inspection,
      type: 'Simple',
      isMandatory: random() < 0.5,
    }));
    const stock = lotIds.map((lotId, k) => ({
      locationReference: k === 0 && i === 0 ? locations[0]! : pick(locations),
      lotId,
      quantity: Math.floor(random() * 500),
      unitOfMeasureId: baseUnit.id,
      comment: '',
    }));
    skus.push({
      id: `sku_${prefix}_${pad(i + 1, 3)}`,
      reference: `SKU-${skuBase}${pad(i + 1, 3)}`,
      name,
      familyCode: families[i % FIRST_EMPTY_FAMILY]!.code,
      weightKg: i % 7 === 3 ? null : Math.round(random() * 5000) / 100,
      isActive: i === 0 || random() < 0.85,
      createdAt: skuStamps[i]![0],
      lastModifiedAt: skuStamps[i]![1],
      baseUnitId: baseUnit.id,
      unitIds,
      lotIds,
      inspections,
      stock,
    });
  }

  const assetStamps = stamps(random, ASSET_COUNT, 5);
  const assets: Asset[] = [];
  for (let i = 0; i < ASSET_COUNT; i += 1) {
    const kind: Asset['kind'] = i < 6 ? 'Space' : i % 3 === 0 ? 'Tool' : 'Equipment';
    assets.push({
      id: `ast_${prefix}_${pad(i + 1)}`,
      assetCode: `AST-${pad(i + 1, 3)}`,
      title: `${pick(ASSET_WORDS[kind])} ${i + 1}`,
      kind,
      createdAt: assetStamps[i]![0],
      lastModifiedAt: assetStamps[i]![1],
      parentId: i < 6 ? null : assets[Math.floor(random() * Math.min(i, 10))]!.id,
    });
  }

  const purchaseOrders: PurchaseOrder[] = [];
  for (let o = 0; o < ORDER_COUNT; o += 1) {
    const lines = [0, 1, 2, 3].map((k) => {
      const sku = skus[(o * 4 + k) % SKU_COUNT]!;
      const status = LINE_STATUSES[(o + k) % LINE_STATUSES.length]!;
      const quantity = 10 + Math.floor(random() * 90);
      return {
        id: `pol_${prefix}_${pad(o + 1)}_${k + 1}`,
        lineNumber: k + 1,
        skuReference: sku.reference,
        quantity,
        receivedQuantity: status === 'Received' ? quantity : 0,
        unitOfMeasureId: sku.baseUnitId,
        status,
        comment: '',
        lastModifiedAt: sku.lastModifiedAt,
      };
    });
    purchaseOrders.push({ id: `po_${prefix}_${pad(o + 1)}`, code: `PO-${pad(o + 1, 4)}`, lines });
  }

  return { org, prefix, units, locations, skus, families, assets, purchaseOrders };
}

/** A purchase order line, addressed by its order and line ids (the runner's `--data` format). */
export interface LineRef {
  purchaseOrderId: string;
  lineId: string;
}

/** The sample records of an organisation in the conformance runner's `--data` format. */
export interface DataFile {
  orgCode: string;
  sku: {
    reference: string;
    inspectionIds: string[];
    baseUnitOfMeasureId: string;
    alternativeUnitOfMeasureId: string;
    locationReference: string;
    lotId: string;
  };
  unknownUnitOfMeasureId: string;
  deletableFamilyId: string;
  purchaseOrderLine: LineRef;
  cancelledPurchaseOrderLine: LineRef;
  receivedPurchaseOrderLine: LineRef;
}

function lineWith(world: World, status: LineStatus): LineRef {
  for (const order of world.purchaseOrders)
    for (const line of order.lines) if (line.status === status) return { purchaseOrderId: order.id, lineId: line.id };
  throw new Error(`no ${status} line generated`);
}

/** The data file of a freshly generated world (its first SKU is built to fit every promise of `sku`). */
export function dataFileOf(world: World): DataFile {
  const sku = world.skus[0]!;
  const stock = sku.stock[0]!;
  return {
    orgCode: world.org,
    sku: {
      reference: sku.reference,
      inspectionIds: sku.inspections.map((i) => i.id),
      baseUnitOfMeasureId: sku.baseUnitId,
      alternativeUnitOfMeasureId: sku.unitIds.find((id) => id !== sku.baseUnitId)!,
      locationReference: stock.locationReference,
      lotId: stock.lotId,
    },
    unknownUnitOfMeasureId: world.units.find((u) => !sku.unitIds.includes(u.id))!.id,
    deletableFamilyId: world.families[FIRST_EMPTY_FAMILY]!.id,
    purchaseOrderLine: lineWith(world, 'Confirmed'),
    cancelledPurchaseOrderLine: lineWith(world, 'Cancelled'),
    receivedPurchaseOrderLine: lineWith(world, 'Received'),
  };
}
