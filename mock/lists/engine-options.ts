/**
 * Options of the list engine, set once per mock (never per request).
 *
 * `textCase`: whether Contains, StartsWith and EndsWith compare letters regardless of case. The reference does not
 * say (Endpoints / List and search endpoints: "field contains the text"); inferred `insensitive`, and a real
 * deployment's observed behaviour can be adopted instead (`opsapi mock --decisions`, point `text-case`).
 */
export type TextCase = 'insensitive' | 'sensitive';

/** Where null values come in an ascending sort (the mirror place descending). */
export type NullOrder = 'first' | 'last';

export interface ListEngineOptions {
  readonly textCase: TextCase;
  /**
   * Whether Equals compares text values regardless of case. Inferred `sensitive` (exact); a deployment's observed
   * behaviour can be adopted instead (point `equals-case`).
   */
  readonly equalsCase: TextCase;
  /**
   * Where null values sort. The reference does not say; inferred `first` ascending (mock/lists/sort.ts), and a
   * deployment's observed place can be adopted instead (point `null-order`). Absent: `first`.
   */
  readonly nullOrder?: NullOrder;
}

/** The engine as the contract infers it. */
export const DEFAULT_LIST_ENGINE: ListEngineOptions = { textCase: 'insensitive', equalsCase: 'sensitive' };

/** Whether an engine runs as the contract infers (no option of its own set). */
export function isDefaultEngine(engine: ListEngineOptions): boolean {
  return (
    engine.textCase === DEFAULT_LIST_ENGINE.textCase &&
    engine.equalsCase === DEFAULT_LIST_ENGINE.equalsCase &&
    (engine.nullOrder ?? 'first') === 'first'
  );
}

/** How an engine compares text, as one key (compiled filters and cached matches of other modes differ). */
export function caseMode(engine: Pick<ListEngineOptions, 'textCase' | 'equalsCase'>): string {
  return `${engine.textCase === 'sensitive' ? 'S' : 'i'}${engine.equalsCase === 'insensitive' ? 'i' : 'S'}`;
}
