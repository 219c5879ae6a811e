import { codeStatusId } from '../../spec/decisions/index.js';
import { expected } from '../decided.js';
import type { CheckContext, CheckDef } from '../context.js';
import { expectProblem, identity, nonce, pageOf } from '../helpers.js';
import { eventVersions, forget, SUBSCRIPTIONS, subscribe } from './subscriptions.js';

const base = { family: 'writes' as const, requires: ['writes' as const], phase: 'state' as const };

/** A valid subscription event for negative tests (the first of the environment). */
async function someEvent(c: CheckContext): Promise<{ eventName: string; eventVersion: number }> {
  const v = (await eventVersions(c.run))[0];
  if (!v) c.skip('GET /v1/notifications/events/versions returned no event');
  return v as { eventName: string; eventVersion: number };
}

/** The subscription error checks: the code with a 4xx (MUST) and exactly 400 (SHOULD). */
function subscriptionErrors(
  id: string,
  code: string,
  title: string,
  bodies: (c: CheckContext) => Promise<Record<string, unknown>[]>,
): CheckDef[] {
  const run = async (c: CheckContext, exact: boolean) => {
    for (const body of await bodies(c)) {
      const ex = await c.send({ method: 'POST', path: SUBSCRIPTIONS, json: body });
      c.exercised(JSON.stringify(body));
      if (ex.status >= 200 && ex.status < 300) {
        const created = (ex.json as { id?: string } | undefined)?.id;
        if (created) await c.send({ method: 'DELETE', path: `${SUBSCRIPTIONS}/${encodeURIComponent(created)}` });
      }
      const status = expected<'code-status'>(c.run, codeStatusId(code), 400);
      if (exact)
        c.expect(
          ex.status === status,
          `POST ${SUBSCRIPTIONS} ${JSON.stringify(body)}`,
          ex,
          String(status),
          String(ex.status),
        );
      else expectProblem(c, ex, status, code, `POST ${SUBSCRIPTIONS} ${JSON.stringify(body)}`, true);
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
      title: `${title}: exactly 400 (or the status observed, under --decisions)`,
      clause: 'Events, point 3 (the status is not shown)',
      level: 'SHOULD',
      run: (c) => run(c, true),
    },
  ];
}
/** The subscription checks of the writes family (lifecycle, unknown deletion, refused subscriptions). */
export function subscriptionWriteChecks(): CheckDef[] {
  return [
    {
      ...base,
      id: 'writes.subscription-lifecycle',
      title: 'A subscription is created, listed, and deleted',
      clause: 'Endpoints / Webhook subscriptions',
      level: 'MUST',
      async run(c) {
        const event = await someEvent(c);
        const created = await subscribe(
          c.run,
          c.def.id,
          event.eventName,
          event.eventVersion,
          `https://conform.invalid/lifecycle/${nonce()}`,
        );
        const b = created.json as
          | { id?: unknown; endpoint?: unknown; eventName?: unknown; eventVersion?: unknown }
          | undefined;
        c.exercised('create');
        if (
          !c.expect(
            created.status >= 200 && created.status < 300 && typeof b?.id === 'string',
            `POST ${SUBSCRIPTIONS}`,
            created,
            '2xx with the subscription',
            String(created.status),
          ) ||
          typeof b?.id !== 'string'
        )
          return;
        const id = b.id;
        c.expect(
          b.eventName === event.eventName && b.eventVersion === event.eventVersion,
          `POST ${SUBSCRIPTIONS}: the answer does not echo the event`,
          created,
          `${event.eventName} v${event.eventVersion}`,
          `${String(b.eventName)} v${String(b.eventVersion)}`,
        );
        const listed = async () => {
          const ex = await c.send({ method: 'GET', path: SUBSCRIPTIONS, query: { pageSize: 1000 } });
          return { ex, found: pageOf(ex)?.results.some((i) => identity(i) === id) ?? false };
        };
        const before = await listed();
        c.expect(
          before.found,
          `GET ${SUBSCRIPTIONS}: the new subscription is not listed`,
          before.ex,
          `an item with id ${id}`,
          'absent',
        );
        const del = await c.send({ method: 'DELETE', path: `${SUBSCRIPTIONS}/${encodeURIComponent(id)}` });
        c.exercised('delete');
        if (
          c.expect(
            del.status >= 200 && del.status < 300,
            `DELETE ${SUBSCRIPTIONS}/${id}`,
            del,
            '2xx (204)',
            String(del.status),
          )
        )
          forget(c.run, id);
        const after = await listed();
        c.expect(
          !after.found,
          `GET ${SUBSCRIPTIONS}: the deleted subscription is still listed`,
          after.ex,
          'absent',
          'listed',
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
        return [
          { endpoint: 'https://conform.invalid/x', eventName: 'Conform.NoSuch.Happened', eventVersion: 1 },
          { endpoint: 'https://conform.invalid/x', eventName: event.eventName, eventVersion: 999 },
        ];
      },
    ),
    ...subscriptionErrors(
      'writes.subscription-invalid-url',
      'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL',
      'A subscription to an invalid endpoint URL is refused',
      async (c) => {
        const event = await someEvent(c);
        return [
          { endpoint: 'not a url', eventName: event.eventName, eventVersion: event.eventVersion },
          { endpoint: 'ftp://conform.invalid/x', eventName: event.eventName, eventVersion: event.eventVersion },
        ];
      },
    ),
  ];
}
