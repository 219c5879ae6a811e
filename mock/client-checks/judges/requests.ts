import { checkDef } from './defs.js';
import { failed, judged, notExercised, passed, plural, requestEvidence, type Judge } from './support.js';

/** client.auth-bearer: every request that carries a bearer token carries it as `Authorization: Bearer <token>`. */
export const authBearer: Judge = (trace) => {
  const carrying = judged(trace).filter((r) => r.auth.shape !== 'absent');
  if (carrying.length === 0) return notExercised(checkDef('client.auth-bearer'));
  const wrong = carrying.filter(
    (r) =>
      r.auth.shape === 'bearer-malformed' || r.auth.shape === 'no-scheme' || (r.auth.shape === 'other' && r.auth.jwt),
  );
  if (wrong.length)
    return failed(
      wrong.map((r) =>
        requestEvidence(
          r,
          'the bearer token is not sent as Authorization: Bearer <token>',
          'Authorization: Bearer <token>',
          r.auth.shape === 'no-scheme'
            ? 'a token without a scheme'
            : r.auth.shape === 'other'
              ? `a token under the scheme ${r.auth.scheme ?? ''}`
              : `the scheme ${r.auth.scheme ?? ''} without exactly one token after it`,
        ),
      ),
    );
  return passed(`${plural(carrying.length, 'request')} with an Authorization header, each Bearer <token>`);
};

/** `application/json`, in any case, with or without parameters (`; charset=utf-8`). */
const JSON_MEDIA = /^\s*application\/json\s*(;.*)?$/i;

/** client.body-content-type: every request with a body sends `Content-Type: application/json`. */
export const bodyContentType: Judge = (trace) => {
  const withBody = judged(trace).filter((r) => r.body !== undefined);
  if (withBody.length === 0) return notExercised(checkDef('client.body-content-type'));
  const wrong = withBody.filter((r) => !JSON_MEDIA.test(r.contentType ?? ''));
  if (wrong.length)
    return failed(
      wrong.map((r) =>
        requestEvidence(
          r,
          'a body sent without Content-Type: application/json',
          'application/json',
          r.contentType ?? 'no Content-Type',
        ),
      ),
    );
  return passed(`${plural(withBody.length, 'request')} with a body, each sent as application/json`);
};
