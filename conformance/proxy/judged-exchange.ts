import { isJsonMedia, mediaTypeOf } from '../contract/bodies.js';
import type { Exchange } from '../wire/client.js';
import { matchOperation } from '../contract/contract.js';
import type { Redactor } from '../wire/redact.js';
import type { CapturedExchange } from './forward.js';

/** Header pairs as one record (lowercased names; repeated headers joined with ", ", set-cookie lines with "\n"). */
function headerRecord(pairs: readonly [string, string][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    out[key] = out[key] === undefined ? value : `${out[key]}${key === 'set-cookie' ? '\n' : ', '}${value}`;
  }
  return out;
}

/**
 * A forwarded exchange as the runner records its own (conformance/client.ts `Exchange`), so the same rules judge it:
 * the path below the target's base path, credentials redacted, the JSON body parsed when it came whole.
 */
export function toExchange(captured: CapturedExchange, basePath: string, redactor: Redactor): Exchange {
  const q = captured.target.indexOf('?');
  const fullPath = q === -1 ? captured.target : captured.target.slice(0, q);
  const path = basePath && fullPath.startsWith(basePath) ? fullPath.slice(basePath.length) || '/' : fullPath;
  const target = `${path}${q === -1 ? '' : captured.target.slice(q)}`;
  const headers = headerRecord(captured.responseHeaders);
  const text = captured.responseBody.toString('utf8');
  const whole = captured.responseBody.length === captured.responseBodySize;
  let json: unknown;
  if (whole && text !== '' && isJsonMedia(mediaTypeOf(headers['content-type'])))
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  const operationId = matchOperation(captured.method, path);
  return {
    seq: captured.seq,
    check: 'proxy',
    method: captured.method.toUpperCase(),
    path,
    target,
    url: captured.target,
    requestHeaders: redactor.headers(headerRecord(captured.requestHeaders)),
    ...(captured.requestBodySize > 0 ? { requestBody: captured.requestBody.toString('utf8') } : {}),
    status: captured.status,
    headers,
    text,
    json,
    durationMs: captured.durationMs,
    ...(operationId ? { operationId } : {}),
  };
}
