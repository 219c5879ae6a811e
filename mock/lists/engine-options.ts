/**
 * Options of the list engine, set once per mock (never per request).
 *
 * `textCase`: whether Contains, StartsWith and EndsWith compare letters regardless of case. The reference does not
 * say (Endpoints / List and search endpoints: "field contains the text"); inferred `insensitive`, and a real
 * deployment's observed behaviour can be adopted instead (`opsapi mock --decisions`, point `text-case`).
 */
export type TextCase = 'insensitive' | 'sensitive';

export interface ListEngineOptions {
  readonly textCase: TextCase;
  /**
   * Whether Equals compares text values regardless of case. Inferred `sensitive` (exact); a deployment's observed
   * behaviour can be adopted instead (point `equals-case`).
   */
  readonly equalsCase: TextCase;
}

/** The engine as the contract infers it. */
export const DEFAULT_LIST_ENGINE: ListEngineOptions = { textCase: 'insensitive', equalsCase: 'sensitive' };

/** How an engine compares text, as one key (compiled filters and cached matches of other modes differ). */
export function caseMode(engine: Pick<ListEngineOptions, 'textCase' | 'equalsCase'>): string {
  return `${engine.textCase === 'sensitive' ? 'S' : 'i'}${engine.equalsCase === 'insensitive' ? 'i' : 'S'}`;
}
