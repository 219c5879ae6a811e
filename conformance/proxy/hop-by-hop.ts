/**
 * Which headers cross the proxy. RFC 9110 section 7.6.1: Connection, the fields it names, and the connection-specific
 * fields Keep-Alive, Proxy-Connection (and every Proxy-* field, which are meant for this hop), TE, Trailer,
 * Transfer-Encoding and Upgrade belong to one connection and are not forwarded, in either direction. Everything else
 * crosses unchanged: raw names, values and order.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function isHopByHop(lower: string, listed: Set<string> | null): boolean {
  return HOP_BY_HOP.has(lower) || lower.startsWith('proxy-') || listed?.has(lower) === true;
}

/** The field names the Connection headers of flat `[name, value, ...]` list (lower case), or null for none. */
function listedIn(flat: readonly string[]): Set<string> | null {
  let listed: Set<string> | null = null;
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i] as string;
    if (name.length !== 10 || name.toLowerCase() !== 'connection') continue;
    for (const token of (flat[i + 1] as string).split(',')) {
      const listedName = token.trim().toLowerCase();
      if (listedName === '' || HOP_BY_HOP.has(listedName)) continue;
      listed ??= new Set();
      listed.add(listedName);
    }
  }
  return listed;
}

/**
 * The request headers to send to the target (flat), from the client's raw headers. Dropped besides the hop-by-hop
 * ones: `Host`, which the proxy writes as the target's host:port (so the target answers as it would to a direct call:
 * our mock builds problem `type` addresses from Host, and with it every answer through the proxy is byte-identical to
 * the direct answer), and `Expect`, which the proxy answers itself with `100 Continue` (inferred). Every other header
 * keeps its raw name, value and place (Content-Length included: a chunked body is framed anew, see ./wire.ts).
 */
export function requestHeadersToForward(raw: readonly string[], via: string | null): string[] {
  const listed = listedIn(raw);
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    const lower = name.toLowerCase();
    if (lower === 'host' || lower === 'expect' || isHopByHop(lower, listed)) continue;
    out.push(name, raw[i + 1] as string);
  }
  if (via !== null) out.push('Via', via);
  return out;
}

/**
 * The target's response headers (flat, latin1 strings as parsed: every byte comes back out as it came in): all of
 * them as pairs (for the capture), and the ones to send on (flat).
 */
export function responseHeadersOf(flat: readonly string[]): { all: [string, string][]; forwarded: string[] } {
  const listed = listedIn(flat);
  const all = new Array<[string, string]>(flat.length >> 1);
  const forwarded: string[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i] as string;
    const value = flat[i + 1] as string;
    all[i >> 1] = [name, value];
    if (!isHopByHop(name.toLowerCase(), listed)) forwarded.push(name, value);
  }
  return { all, forwarded };
}
