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
}

/** The engine as the contract infers it. */
export const DEFAULT_LIST_ENGINE: ListEngineOptions = { textCase: 'insensitive' };
