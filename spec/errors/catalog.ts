import { catalogLine, type ReferenceSentence, referenceSentence, type SentenceId } from '../reference/index.js';
import { ERROR_CODES, type ErrorCode } from './codes.js';
import { capitalise, codeParts, words, type CodeParts } from './naming.js';
import { statusOf, statusRuleOf } from './statuses.js';

/** One entry of the error catalog, as `GET /v1/errors/{errorCode}` returns it (reference: Resources / Error catalog entry). */
interface ErrorCatalogEntry {
  code: ErrorCode;
  title: string;
  description: string;
  parameters: { key: string; description: string }[];
}

/**
 * A catalog entry with its HTTP status and the provenance of each part.
 *
 * The code itself is always documented (it is listed in the reference's catalog). The texts (title, description,
 * parameters) are `documented` only for the codes whose condition the reference states; for every other code the
 * reference says "Conditions behind each code beyond what its name says: not shown", so the texts are derived from
 * the code's name and marked `inferred`.
 */
export interface CatalogRecord extends ErrorCatalogEntry {
  status: number;
  statusProvenance: 'documented' | 'inferred';
  statusRationale?: string;
  /** For a documented status, the row of "Status and code pairs shown" that gives it. */
  statusQuote?: ReferenceSentence;
  provenance: 'documented';
  /** The catalog line of the code's prefix (Errors / Error code catalog). */
  quote: ReferenceSentence;
  textProvenance: 'documented' | 'inferred';
  textRationale?: string;
  /** For documented texts, the sentence that states the code's condition. */
  textQuote?: ReferenceSentence;
  /** The sentence of the reference stating the condition an inferred description restates. */
  textConditionQuote?: ReferenceSentence;
}

type Parameter = ErrorCatalogEntry['parameters'][number];

interface HandText {
  readonly description?: string;
  readonly parameters?: readonly Parameter[];
}

/**
 * Codes whose condition the reference states, with that condition as the description.
 * Sources: Errors / Status and code pairs shown (five coded rows), Events 3 (the two subscription errors),
 * Authentication 4 (the missing permission named in the detail).
 */
const DOCUMENTED_TEXTS: Readonly<Partial<Record<ErrorCode, Required<HandText> & { readonly quote: SentenceId }>>> = {
  'COMMON.QUERY.FILTER_PARSING_FAILED': {
    quote: 'errors.pair.400',
    description: 'The filter string cannot be parsed or names a column that does not exist.',
    parameters: [
      { key: 'filterBy', description: 'The filter string that was sent.' },
      { key: 'position', description: 'Position in the filter string where parsing failed.' },
    ],
  },
  'COMMON.AUTH.MISSING_PERMISSIONS': {
    quote: 'auth.4.forbidden',
    description: 'The caller lacks a permission; the detail names the missing permission.',
    parameters: [
      {
        key: 'permission',
        description:
          'The missing permission, shape Domain.Resource.Access (for example one ending in .Read or .Write).',
      },
    ],
  },
  'COMMON.ENTITY.NOT_FOUND': {
    quote: 'errors.pair.404',
    description: 'An addressed entity does not exist.',
    parameters: [
      { key: 'entity', description: 'Kind of the entity that was addressed.' },
      { key: 'id', description: 'Identifier of the entity that was addressed.' },
    ],
  },
  'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE': {
    quote: 'errors.pair.422',
    description: 'A cancelled purchase order line is modified.',
    parameters: [
      { key: 'purchaseOrderId', description: 'Identifier of the purchase order.' },
      { key: 'lineId', description: 'Identifier of the cancelled line.' },
    ],
  },
  'COMMON.RATE_LIMIT.EXCEEDED': {
    quote: 'errors.pair.429',
    description: 'The request rate limit of the tenant is exceeded; the caller retries after the indicated delay.',
    parameters: [],
  },
  'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND': {
    quote: 'events.3.codes',
    description:
      'The subscription names an unknown event (its eventName and eventVersion match no event of the environment).',
    parameters: [
      { key: 'eventName', description: 'The event name sent in the subscription.' },
      { key: 'eventVersion', description: 'The event version sent in the subscription.' },
    ],
  },
  'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL': {
    quote: 'events.3.codes',
    description: 'The endpoint URL of the subscription is invalid.',
    parameters: [{ key: 'endpoint', description: 'The endpoint URL that was sent.' }],
  },
};

const DOCUMENTED_TEXT_RATIONALE =
  "The description restates, in the contract's words, the condition the reference gives for this code (quoted in x-text-condition-quote); the reference gives no title, description or parameter keys for any code, so the texts themselves are the contract's.";

/** Codes of the COMMON prefixes whose texts are written one by one (still inferred: the reference gives no condition). */
const HAND_TEXTS: Readonly<Partial<Record<ErrorCode, HandText>>> = {
  'COMMON.QUERY.EXPANSION_NOT_SUPPORTED': {
    description: 'The request asks to expand a related resource that the endpoint cannot expand.',
    parameters: [{ key: 'expansion', description: 'The expansion that is not supported.' }],
  },
  'COMMON.QUERY.SORTING_PARSING_FAILED': {
    description: 'The sort string cannot be parsed or names a field that cannot be sorted.',
    parameters: [{ key: 'sortBy', description: 'The sort string that was sent.' }],
  },
  'COMMON.AUTH.MISSING_ROLE': {
    description: 'The caller lacks a role the operation requires.',
    parameters: [{ key: 'role', description: 'The missing role, for example App.Admin.' }],
  },
  'COMMON.AUTH.REQUIRES_MASTER_TENANT': {
    description: 'The operation is only allowed to the master tenant.',
    parameters: [],
  },
  'COMMON.AUTH.FORBIDDEN': { description: 'The caller may not perform the operation.', parameters: [] },
  'COMMON.AUTH.UNAUTHORIZED': { description: 'The caller is not authenticated.', parameters: [] },
  'COMMON.TENANT.EXPIRED': { description: 'The subscription of the tenant has expired.', parameters: [] },
  'COMMON.TENANT.PLAN_FEATURE_NOT_ALLOWED': {
    description: 'The plan of the tenant does not include the feature the operation uses.',
    parameters: [{ key: 'feature', description: 'The feature that the plan does not include.' }],
  },
  'COMMON.TENANT.PLAN_LIMIT_EXCEEDED': {
    description: 'The operation would exceed a limit of the tenant plan.',
    parameters: [
      { key: 'limit', description: 'The plan limit that would be exceeded.' },
      { key: 'resource', description: 'Kind of the entity the limit counts.' },
      { key: 'maximum', description: 'The most of that entity the tenant may hold.' },
    ],
  },
  'COMMON.VALIDATION.EVENT_CONDITION_FORMULA_DESERIALIZATION_FAILED': {
    description: 'The event condition formula in the request cannot be deserialised.',
    parameters: [{ key: 'condition', description: 'The condition formula that was sent.' }],
  },
  'COMMON.VALIDATION.ERROR': {
    description: 'The request fails validation.',
    parameters: [{ key: 'field', description: 'The request field that fails validation.' }],
  },
  'COMMON.QUANTITY.UNIT_NOT_CONFIGURED': {
    description: 'The unit of measure of a quantity is not configured for the SKU.',
    parameters: [
      { key: 'unitOfMeasureId', description: 'Identifier of the unit of measure that was sent.' },
      { key: 'skuReference', description: 'Reference of the SKU concerned.' },
    ],
  },
  'COMMON.QUANTITY.BASE_UNIT_PRECISION_EXCEEDED': {
    description: 'A quantity has more decimal places than the base unit of measure allows.',
    parameters: [
      { key: 'unitOfMeasureId', description: 'Identifier of the base unit of measure.' },
      { key: 'quantity', description: 'The quantity that was sent.' },
    ],
  },
  'COMMON.ENTITY.ALREADY_EXISTS': {
    description: 'An entity with the same identity already exists.',
    parameters: [
      { key: 'entity', description: 'Kind of the entity.' },
      { key: 'id', description: 'Identifier of the existing entity.' },
    ],
  },
  'COMMON.MESSAGING.TENANT_CODE_NOT_SPECIFIED': {
    description: 'A message does not specify the tenant code.',
    parameters: [],
  },
  'COMMON.FILE.SIZE_EXCEEDS_LIMIT': {
    description: 'The uploaded file is larger than the size limit.',
    parameters: [{ key: 'fileName', description: 'Name of the uploaded file.' }],
  },
  'COMMON.FILE.UNSUPPORTED_AI_CONTENT': {
    description: 'The file content cannot be processed by the automatic analysis.',
    parameters: [{ key: 'contentType', description: 'Content type of the file.' }],
  },
  'AGENTS.PERMISSIONS.UNKNOWN': {
    parameters: [{ key: 'permission', description: 'The agent permission that is not known.' }],
  },
  'AGENTS.PERMISSIONS.NOT_GRANTED': {
    parameters: [{ key: 'permission', description: 'The agent permission that is not granted.' }],
  },
  'WAREHOUSE.AI.COULD_NOT_PROCESS_IMAGE': { parameters: [] },
  'WAREHOUSE.AI.GENERATED_INVALID_RESPONSE': { parameters: [] },
};

const INFERRED_TEXT_RATIONALE =
  'The reference lists this code without its condition ("Conditions behind each code beyond what its name says: not shown"); the title, description and parameters are derived from the code\'s name.';

const HAND_TEXT_RATIONALE =
  'The reference lists this code without its condition ("Conditions behind each code beyond what its name says: not shown"); the title is derived from the code\'s name and the description and parameters are written from what the name says.';

/** Spelling of an entity word of a prefix in running text, where the plain words read badly. */
const ENTITY_NOUNS: Readonly<Record<string, string>> = {
  RECRUITING: 'recruiting process',
  CHATAPP: 'chat app',
};

/** Entities whose natural key in paths is a reference rather than an id (reference: `{skuReference}`, `locationReference`). */
const REFERENCE_KEYED_ENTITIES: Readonly<Record<string, string>> = {
  SKU: 'skuReference',
  LOCATION: 'locationReference',
};

/** Suffix words that name a sub-item; an entry whose suffix holds one gets a parameter for it. */
const SUB_ITEM_PARAMETERS: readonly { readonly word: string; readonly key: string; readonly description: string }[] = [
  { word: 'LINE', key: 'lineId', description: 'Identifier of the line concerned.' },
  { word: 'OPERATION', key: 'operationId', description: 'Identifier of the operation concerned.' },
  { word: 'STEP', key: 'stepId', description: 'Identifier of the step concerned.' },
  { word: 'INSPECTION', key: 'inspectionId', description: 'Identifier of the inspection concerned.' },
  { word: 'SKU', key: 'skuReference', description: 'Reference of the SKU concerned.' },
  { word: 'FAMILY', key: 'familyId', description: 'Identifier of the family concerned.' },
  { word: 'PROPERTY', key: 'propertyId', description: 'Identifier of the property concerned.' },
  { word: 'LOCATION', key: 'locationReference', description: 'Reference of the location concerned.' },
  { word: 'CONTAINER', key: 'containerId', description: 'Identifier of the container concerned.' },
  { word: 'SHIPMENT', key: 'shipmentId', description: 'Identifier of the shipment concerned.' },
  { word: 'WORKSTATION', key: 'workstationId', description: 'Identifier of the workstation concerned.' },
  { word: 'TRIGGER', key: 'triggerId', description: 'Identifier of the trigger concerned.' },
  { word: 'PERMISSION', key: 'permission', description: 'The permission concerned.' },
];

/** Single-word suffixes that read well as a title on their own; other single words get the entity in front. */
const STANDALONE_TITLES = new Set(['FORBIDDEN', 'UNAUTHORIZED']);

function entityNoun(parts: CodeParts): string {
  return ENTITY_NOUNS[parts.entity] ?? words(parts.entity);
}

/** Title: the suffix as words (`FILTER_PARSING_FAILED` -> `Filter parsing failed`); a one-word suffix gets the entity in front (`Rate limit exceeded`). */
function titleOf(code: ErrorCode): string {
  const parts = codeParts(code);
  const single = !parts.suffix.includes('_') && !STANDALONE_TITLES.has(parts.suffix);
  return capitalise(single ? `${entityNoun(parts)} ${words(parts.suffix)}` : words(parts.suffix));
}

/** Generated description: `Purchase order (planning): cannot modify cancelled line.` */
function generatedDescription(parts: CodeParts): string {
  return `${capitalise(entityNoun(parts))} (${words(parts.domain)}): ${words(parts.suffix)}.`;
}

/** Words that turn the word before them into a qualifier (`INSPECTION_STEP` is a kind of step, `PROPERTY_BASED_INPUT` a kind of input). */
const QUALIFYING_WORDS = new Set(['STEP', 'BASED']);

/** Whether the suffix names `word` as an item of its own (not as a qualifier of the next word). */
function namesItem(suffix: string, word: string): boolean {
  const parts = suffix.split('_');
  return parts.some((w, i) => w === word && !QUALIFYING_WORDS.has(parts[i + 1] ?? ''));
}

/** Rule-based parameters: the entity concerned, sub-items named in the suffix, and the rejected value of a code the malformed-value status rule covers. */
function generatedParameters(code: ErrorCode, parts: CodeParts): Parameter[] {
  const params: Parameter[] = [];
  const add = (p: Parameter): void => {
    if (!params.some((q) => q.key === p.key)) params.push(p);
  };
  const noun = entityNoun(parts);
  const referenceKey = REFERENCE_KEYED_ENTITIES[parts.entity];
  if (referenceKey) add({ key: referenceKey, description: `Reference of the ${noun} concerned.` });
  else add({ key: 'id', description: `Identifier of the ${noun} concerned.` });
  for (const sub of SUB_ITEM_PARAMETERS) {
    if (sub.word !== parts.entity && namesItem(parts.suffix, sub.word))
      add({ key: sub.key, description: sub.description });
  }
  if (statusRuleOf(code) === 'malformed-value') add({ key: 'value', description: 'The value that was rejected.' });
  return params;
}

function buildRecord(code: ErrorCode): CatalogRecord {
  const parts = codeParts(code);
  const status = statusOf(code);
  const statusPart = {
    status: status.status,
    statusProvenance: status.provenance,
    ...(status.rationale !== undefined ? { statusRationale: status.rationale } : {}),
    ...(status.quote !== undefined ? { statusQuote: status.quote } : {}),
  };
  const quote = catalogLine(parts.prefix);
  const documented = DOCUMENTED_TEXTS[code];
  if (documented) {
    return {
      code,
      title: titleOf(code),
      description: documented.description,
      parameters: documented.parameters.map((p) => ({ ...p })),
      ...statusPart,
      provenance: 'documented',
      quote,
      // The texts a server sends are never given: only the condition they describe is (Errors / Status and code pairs).
      textProvenance: 'inferred',
      textRationale: DOCUMENTED_TEXT_RATIONALE,
      textConditionQuote: referenceSentence(documented.quote),
    };
  }
  const hand = HAND_TEXTS[code];
  return {
    code,
    title: titleOf(code),
    description: hand?.description ?? generatedDescription(parts),
    parameters: (hand?.parameters ?? generatedParameters(code, parts)).map((p) => ({ ...p })),
    ...statusPart,
    provenance: 'documented',
    quote,
    textProvenance: 'inferred',
    textRationale: hand?.description !== undefined ? HAND_TEXT_RATIONALE : INFERRED_TEXT_RATIONALE,
  };
}

function freezeRecord(record: CatalogRecord): CatalogRecord {
  for (const p of record.parameters) Object.freeze(p);
  Object.freeze(record.parameters);
  return Object.freeze(record);
}

/** Every catalog record, in reference order (frozen). */
export const ERROR_CATALOG: readonly CatalogRecord[] = Object.freeze(
  ERROR_CODES.map((code) => freezeRecord(buildRecord(code))),
);

const BY_CODE: ReadonlyMap<string, CatalogRecord> = new Map(ERROR_CATALOG.map((record) => [record.code, record]));

/** Whether a string is one of the catalog's error codes. */
export function isErrorCode(s: string): s is ErrorCode {
  return BY_CODE.has(s);
}

/**
 * The catalog record of a code, or `undefined` when the string is not a catalog code. Total for an `ErrorCode`:
 * the catalog holds a record for every code (it is built from `ERROR_CODES`).
 */
export function catalogEntry(code: ErrorCode): CatalogRecord;
export function catalogEntry(code: string): CatalogRecord | undefined;
export function catalogEntry(code: string): CatalogRecord | undefined {
  return BY_CODE.get(code);
}

/** The public part of a record, as the `GET /v1/errors/{errorCode}` response body carries it. */
export function toCatalogEntry(record: CatalogRecord): ErrorCatalogEntry {
  return {
    code: record.code,
    title: record.title,
    description: record.description,
    parameters: record.parameters.map((p) => ({ key: p.key, description: p.description })),
  };
}
