import { codeStatusId } from '../../spec/decisions/index.js';
import type { Exchange } from '../wire/client.js';
import { expected } from '../contract/decided.js';
import type { CheckContext, CheckDef } from '../context.js';
import { expectProblem, nonce } from '../helpers.js';
import type { EventRef } from '../observe/events.js';
import { readCollection } from '../observe/read-all.js';
import {
  eventVersions,
  forget,
  noEventReason,
  SUBSCRIPTIONS,
  subscribe,
  subscriptionsAt,
} from '../observe/subscriptions.js';

const base = { family: 'writes' as const, requires: ['writes' as const], phase: 'state' as const };
const LIFECYCLE = 'writes.subscription-lifecycle';

/** A valid subscription event for the checks (the first the environment lists). */
async function someEvent(c: CheckContext): Promise<EventRef> {
  const v = (await eventVersions(c.run))[0];
  return v ?? c.skip(await noEventReason(c.run));
}

const is2xx = (ex: Exchange | undefined) => ex !== undefined && ex.status >= 200 && ex.status < 300;

/** What one create, list, delete, list cycle showed (judged by the MUST check and by the SHOULD check of its answers). */
interface Lifecycle {
  event: EventRef;
  endpoint: string;
  created: Exchange;
  id?: string;
  before?: { ex: Exchange; found: boolean } | string;
  deleted?: Exchange;
  after?: { ex: Exchange; found: boolean } | string;
}

/** Whether the subscription list (either form: its shape is not shown) holds an id. */
async function listed(c: CheckContext, id: string): Promise<{ ex: Exchange; found: boolean } | string> {
  const read = await readCollection(c.run.client, LIFECYCLE, { path: SUBSCRIPTIONS });
  if (typeof read === 'string') return read;
  return { ex: read.first, found: read.items.some((i) => i.id === id) };
}

function lifecycle(c: CheckContext): Promise<Lifecycle> {
  return c.run.memo('writes:subscription-lifecycle', async () => {
    const event = await someEvent(c);
    const endpoint = `https://conform.invalid/lifecycle/${nonce()}`;
    const made = await subscribe(c.run, LIFECYCLE, event.eventName, event.eventVersion, endpoint);
    const s: Lifecycle = { event, endpoint, created: made.exchange };
    if (!is2xx(made.exchange)) return s;
    // The create answer is not shown: without an id in it, the id is the one listed with the endpoint.
    const id =
      made.id ?? (await subscriptionsAt(c.run, LIFECYCLE, endpoint)).get(`${event.eventName}@${event.eventVersion}`);
    if (!id) return s;
    s.id = id;
    s.before = await listed(c, id);
    s.deleted = await c.run.client.send(LIFECYCLE, {
      method: 'DELETE',
      path: `${SUBSCRIPTIONS}/${encodeURIComponent(id)}`,
    });
    if (is2xx(s.deleted)) forget(c.run, id);
    s.after = await listed(c, id);
    return s;
  });
}

/** A subscription request body. */
type Body = { endpoint: string; eventName: string; eventVersion: number };

/** The subscription error checks: the code with a 4xx (MUST) and exactly 400 with the code (SHOULD). */
function subscriptionErrors(
  id: string,
  code: string,
  title: string,
  /** Bodies the reference names as refused (MUST), and bodies only the contract refuses (SHOULD). */
  bodies: (c: CheckContext) => Promise<{ documented: Body[]; inferred: Body[] }>,
): CheckDef[] {
  const run = async (c: CheckContext, exact: boolean) => {
    const { documented, inferred } = await bodies(c);
    for (const body of exact ? [...documented, ...inferred] : documented) {
      // Sent as any subscription is: one the target accepts is deleted at the end of the run.
      const { exchange: ex } = await subscribe(c.run, c.def.id, body.eventName, body.eventVersion, body.endpoint);
      c.exercised(JSON.stringify(body));
      const status = expected<'code-status'>(c.run, codeStatusId(code), 400);
      expectProblem(c, ex, status, code, `POST ${SUBSCRIPTIONS} ${JSON.stringify(body)}`, !exact);
    }
  };
  return [
    {
      ...base,
      id,
      title: `${title}: a 4xx with ${code}`,
      clause: 'Events, point 3',
      level: 'MUST',
      run: (c) => run(c, false),
    },
    {
      ...base,
      id: `${id}-400`,
      title: `${title}: exactly 400 (or the status observed, under --decisions), also in the contract's wider cases`,
      clause: 'Events, point 3 (the status is not shown)',
      level: 'SHOULD',
      run: (c) => run(c, true),
    },
  ];
}

/** The subscription checks of the writes family (lifecycle, its answers, unknown deletion, refused subscriptions). */
export function subscriptionWriteChecks(): CheckDef[] {
  return [
    {
      ...base,
      id: LIFECYCLE,
      title: 'A subscription is created, listed, and deleted',
      clause: 'Endpoints / Webhook subscriptions; Resources / Webhook subscription (id used in the DELETE path)',
      level: 'MUST',
      async run(c) {
        const s = await lifecycle(c);
        c.exercised('create');
        // Any 2xx: "Response and status code of the create operation: not shown".
        if (!c.expect(is2xx(s.created), `POST ${SUBSCRIPTIONS}`, s.created, '2xx', String(s.created.status))) return;
        if (
          !c.expect(
            s.id !== undefined,
            `POST ${SUBSCRIPTIONS}: no id for the new subscription, in the answer or listed with its endpoint`,
            s.created,
            `an id, or an item of GET ${SUBSCRIPTIONS} with endpoint ${s.endpoint}`,
            'none',
          )
        )
          return;
        const judgeListed = (read: Lifecycle['before'], want: boolean, message: string) => {
          if (typeof read === 'string' || read === undefined)
            return c.fail(`GET ${SUBSCRIPTIONS} cannot be read`, undefined, 'a page envelope or an array', read);
          c.expect(
            read.found === want,
            message,
            read.ex,
            want ? `an item with id ${s.id}` : 'absent',
            String(read.found),
          );
        };
        judgeListed(s.before, true, `GET ${SUBSCRIPTIONS}: the new subscription is not listed`);
        c.exercised('delete');
        // Any 2xx: "Response and status code of the delete operation: not shown".
        c.expect(is2xx(s.deleted), `DELETE ${SUBSCRIPTIONS}/${s.id}`, s.deleted, '2xx', String(s.deleted?.status));
        judgeListed(s.after, false, `GET ${SUBSCRIPTIONS}: the deleted subscription is still listed`);
      },
    },
    {
      ...base,
      id: 'writes.subscription-answers',
      title: 'Creating a subscription answers 201 with it; deleting answers 204 (or the statuses under --decisions)',
      clause: 'Endpoints / Webhook subscriptions (response and status codes are not shown)',
      level: 'SHOULD',
      async run(c) {
        const s = await lifecycle(c);
        if (!is2xx(s.created)) return c.skip(`the subscription was not created (${s.created.status})`);
        c.exercised('create');
        const createStatus = expected<'success-status'>(c.run, 'success-status:createWebhookSubscription', 201);
        c.expect(
          s.created.status === createStatus,
          `POST ${SUBSCRIPTIONS}`,
          s.created,
          String(createStatus),
          String(s.created.status),
        );
        const b = s.created.json as Record<string, unknown> | undefined;
        c.expect(
          typeof b?.id === 'string' &&
            b.endpoint === s.endpoint &&
            b.eventName === s.event.eventName &&
            b.eventVersion === s.event.eventVersion,
          `POST ${SUBSCRIPTIONS}: the answer is not the subscription`,
          s.created,
          `id, endpoint, ${s.event.eventName} v${s.event.eventVersion}`,
          JSON.stringify(b)?.slice(0, 200),
        );
        if (!s.deleted) return;
        c.exercised('delete');
        const deleteStatus = expected<'success-status'>(c.run, 'success-status:deleteWebhookSubscription', 204);
        c.expect(
          s.deleted.status === deleteStatus,
          `DELETE ${SUBSCRIPTIONS}/{id}`,
          s.deleted,
          String(deleteStatus),
          String(s.deleted.status),
        );
      },
    },
    {
      ...base,
      id: 'writes.subscription-delete-404',
      title: 'Deleting an unknown subscription gives 404 COMMON.ENTITY.NOT_FOUND',
      clause: 'Errors / Status and code pairs (404)',
      level: 'SHOULD',
      async run(c) {
        const path = `${SUBSCRIPTIONS}/conform-no-such-subscription-${nonce()}`;
        const ex = await c.send({ method: 'DELETE', path });
        c.exercised(path);
        expectProblem(c, ex, 404, 'COMMON.ENTITY.NOT_FOUND', `DELETE ${path}`);
      },
    },
    ...subscriptionErrors(
      'writes.subscription-event-not-found',
      'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
      'A subscription to an unknown event is refused',
      async (c) => {
        const event = await someEvent(c);
        const versions = (await eventVersions(c.run)).filter((v) => v.eventName === event.eventName);
        const unknownVersion = Math.max(...versions.map((v) => v.eventVersion)) + 1000;
        return {
          // A name the environment does not list is an unknown event (Events, points 2-3).
          documented: [
            { endpoint: 'https://conform.invalid/x', eventName: 'Conform.NoSuch.Happened', eventVersion: 1 },
          ],
          // A listed name at a version it does not list: the contract counts it as unknown too.
          inferred: [
            { endpoint: 'https://conform.invalid/x', eventName: event.eventName, eventVersion: unknownVersion },
          ],
        };
      },
    ),
    ...subscriptionErrors(
      'writes.subscription-invalid-url',
      'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL',
      'A subscription to an invalid endpoint URL is refused',
      async (c) => {
        const event = await someEvent(c);
        return {
          // Not a URL at all (Events, point 3).
          documented: [{ endpoint: 'not a url', eventName: event.eventName, eventVersion: event.eventVersion }],
          // A URL of another scheme: the reference only says http and https are accepted; the contract refuses others.
          inferred: [
            { endpoint: 'ftp://conform.invalid/x', eventName: event.eventName, eventVersion: event.eventVersion },
          ],
        };
      },
    ),
  ];
}
