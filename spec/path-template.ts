/**
 * OpenAPI path templates (`/v1/items/skus/{skuReference}/stock`) as matchers: one conversion for the mock's route
 * table and the runner's operation matcher, so the two can never disagree on which path a template covers.
 */

/** Characters with a meaning in a regular expression (the braces of `{param}` are replaced before they matter). */
const REGEX_SPECIALS = /[.*+?^$()|[\]\\{}]/g;

/** A `{param}` of a template, already escaped by `REGEX_SPECIALS`. */
const ESCAPED_PARAM = /\\\{[^}/]+\\\}/g;

/**
 * A regular expression matching a whole request path (no query string) against a path template: each `{param}`
 * matches one non-empty path segment (OpenAPI 3.1, Path Templating: a parameter never spans a `/`).
 */
export function pathTemplateRegex(template: string): RegExp {
  return new RegExp(`^${template.replace(REGEX_SPECIALS, '\\$&').replace(ESCAPED_PARAM, '[^/]+')}$`);
}
