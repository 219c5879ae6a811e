import type { IncomingMessage } from 'node:http';
import type { PayloadHook, RequestHook } from '../http/decorator.js';

const API_KEY = 'x-api-key';

/** The `X-Api-Key` set aside while a request is answered, to be put back for the journal. */
const setAside = new WeakMap<IncomingMessage, string | string[]>();

/**
 * Decision point `other-api-key-with-bearer` observed `ignored`: a deployment that ignores `X-Api-Key` when a
 * bearer token is present (Authentication, points 1-2 do not say what both together mean; the contract infers
 * `refused`, mock/http/credentials.ts). An `onRequest` hook sets the key aside before authentication, so the request
 * proceeds with the bearer token alone; an `onSend` hook puts it back, so the request journal still shows what the
 * client sent. Null for `refused`, the mock's own rule: no hooks.
 */
export function bearerOnlyHooks(rule: string | undefined): { onRequest: RequestHook; onSend: PayloadHook } | null {
  if (rule !== 'ignored') return null;
  return {
    onRequest: async function adoptedKeyIgnoredBesideBearer(req) {
      const key = req.raw.headers[API_KEY];
      const authorization = req.raw.headers.authorization;
      if (key === undefined || typeof authorization !== 'string' || !/^Bearer\s/i.test(authorization)) return;
      setAside.set(req.raw, key);
      delete req.raw.headers[API_KEY];
    },
    onSend: async function adoptedKeyPutBack(req, _reply, payload) {
      const key = setAside.get(req.raw);
      if (key !== undefined) {
        req.raw.headers[API_KEY] = key;
        setAside.delete(req.raw);
      }
      return payload;
    },
  };
}
