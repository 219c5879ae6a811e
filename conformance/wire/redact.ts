import { CREDENTIAL_HEADERS } from '../../common/report/redaction.js';

/**
 * Removes credentials from everything the runner records or prints: the values of credential headers, and every
 * occurrence of a known secret (tokens, API keys, the webhook secret) in any text.
 */
export class Redactor {
  private readonly secrets = new Set<string>();
  private readonly secretHeaders = new Set(CREDENTIAL_HEADERS);

  /**
   * Registers a secret to remove from any text. Values shorter than 12 characters are not searched for (they would
   * mangle ordinary text); credentials are longer, and short ones are still hidden where they are sent (headers).
   */
  add(secret: string | undefined | null): void {
    if (typeof secret === 'string' && secret.length >= 12) this.secrets.add(secret);
  }

  /** A header whose value is always hidden (`--header` values may be credentials). */
  addHeader(name: string): void {
    this.secretHeaders.add(name.toLowerCase());
  }

  text(value: string): string {
    let out = value;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join('<redacted>');
    return out;
  }

  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      if (this.secretHeaders.has(lower))
        out[name] = lower === 'authorization' ? value.replace(/^(\S+)\s+.*$/, '$1 <redacted>') : '<redacted>';
      else out[name] = this.text(value);
    }
    return out;
  }

  /** A deep copy of a JSON value with secrets removed from strings. */
  value(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.value(v));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.value(v);
      return out;
    }
    return value;
  }
}
