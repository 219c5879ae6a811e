/** One media range of an `Accept` header with its weight. */
interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

/** The media ranges of an `Accept` header (RFC 9110 section 12.5.1); a range with a malformed weight is dropped. */
function ranges(accept: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((p) => p.trim());
    const [type, subtype] = range.toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((p) => p.trim());
      if (name?.toLowerCase() === 'q')
        q = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value ?? '') ? Number(value) : Number.NaN;
    }
    if (!Number.isNaN(q)) out.push({ type, subtype, q });
  }
  return out;
}

/** The weight the client gives a media type: that of the most specific range matching it (exact, `type/*`, `*∕*`). */
function weightOf(mediaType: string, accepted: readonly MediaRange[]): number {
  const [type, subtype] = mediaType.toLowerCase().split('/');
  let best: { specificity: number; q: number } | null = null;
  for (const r of accepted) {
    const specificity =
      r.type === type && r.subtype === subtype
        ? 2
        : r.type === type && r.subtype === '*'
          ? 1
          : r.type === '*' && r.subtype === '*'
            ? 0
            : -1;
    if (specificity >= 0 && (best === null || specificity > best.specificity)) best = { specificity, q: r.q };
  }
  return best?.q ?? 0;
}

/**
 * The offered media type the client prefers by its `Accept` header (q-values and specificity); ties, a missing or
 * unreadable header and a header accepting none of them go to the first offered type (inferred: lenient, no 406).
 */
export function negotiate(accept: string | undefined, offered: readonly [string, ...string[]]): string {
  if (!accept) return offered[0];
  const accepted = ranges(accept);
  let chosen = offered[0];
  let chosenQ = weightOf(chosen, accepted);
  for (const candidate of offered.slice(1)) {
    const q = weightOf(candidate, accepted);
    if (q > chosenQ) {
      chosen = candidate;
      chosenQ = q;
    }
  }
  return chosen;
}
