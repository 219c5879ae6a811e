/**
 * The noisy neighbour's attacker (scenario `noisy-neighbour`): one tenant at its rate limit sending the worst it can,
 * with its webhook receivers, its subscriptions spread in turn over three: one that never answers, a port that refuses
 * every connection, and one that answers 204 at once and closes the connection (each attempt to the last two ends at
 * once, so only the mock's pace bounds how many it makes, and each is a new connection). Run as a process of its own,
 * as another tenant's client is: `node --import tsx bench/clients/noisy-attacker.ts`, its orders in `NOISY_ATTACKER_ORDERS` (JSON; tokens stay out of
 * the process list). Inside the bench's process, the attacker's own work (a 1 MB body written 60 times a second, the
 * sockets of the silent receivers) ran in the event loop that times the victim's answers, so the victim's latency
 * measured the load generator as much as the mock.
 *
 * Protocol (stdout, one line each): `attacking <json>` (the subscriptions made and the refusal that stopped them) when
 * they are made and the paced load starts, `result <json>` (an AttackerReport) when the load has ended. The silent
 * receivers keep their connections until the process is stopped.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { setPriority } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { closedPort } from '../../common/closed-port.js';
import { call } from '../http.js';
import { runPacedLoad, type LoadRun, type RequestPlan } from '../load.js';
import { listenOnLoopback } from '../loopback.js';

/** What the scenario hands the attacker (`NOISY_ATTACKER_ORDERS`, JSON). */
export interface AttackerOrders {
  url: string;
  token: string;
  expiredToken: string;
  sku: string;
  location: string;
  /** Subscriptions tried, to its three receivers in turn (the attacker stops at the mock's refusal). */
  subscriptions: number;
  eventName: string;
  ratePerS: number;
  seconds: number;
}

/** What the attacker reports when its load has ended. */
export interface AttackerReport {
  subscriptions: number;
  refusal: string | null;
  silentConnectionsAtEnd: number;
  runs: Record<string, Pick<LoadRun, 'responses' | 'errors' | 'unexpected' | 'statusCounts'>>;
}

/** A TCP server that accepts every connection and never answers: the audit's silent webhook receivers. */
class SilentReceiver {
  private readonly sockets = new Set<Socket>();
  url = '';

  async start(): Promise<void> {
    const server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
      // Read and drop whatever arrives, so the mock's writes never block on a full buffer.
      socket.resume();
    });
    this.url = await listenOnLoopback(server);
  }

  get connections(): number {
    return this.sockets.size;
  }
}

/** An HTTP receiver that answers every request 204 at once and closes the connection, so the next needs a new one. */
async function hastyReceiverUrl(): Promise<string> {
  const server = createHttpServer((request, response) => {
    request.resume();
    response.writeHead(204, { connection: 'close' }).end();
  });
  return listenOnLoopback(server);
}

/** The attacker's five kinds of request, each paced at a fifth of the rate limit (the audit's worst). */
function attackerPlans(orders: AttackerOrders): Record<string, RequestPlan> {
  const auth = { authorization: `Bearer ${orders.token}`, accept: 'application/json' };
  const stockPath = `/v1/items/skus/${encodeURIComponent(orders.sku)}/stock`;
  // 1,000,000 bytes: under --body-limit (1 MiB) but far over the 32 KiB a stock update can need, so refused with 413
  // from its Content-Length, before it is read (mock/http/body-limits.ts).
  const invalidBody = `{"stock":"${'x'.repeat(1_000_000 - 12)}"`;
  const filler = 'h'.repeat(15 * 1024);
  // 250 terms (within the 4,096 characters a filter may have, spec/limits.ts), the first naming a value no earlier
  // filter used: every filter is new to the caches.
  const terms = Array.from({ length: 249 }, (_, k) => `name[Equals]${(k + 1).toString(36).padStart(2, '0')}`).join(
    '||',
  );
  const filterOf = (i: number) => encodeURIComponent(`name[Equals]${i.toString(36)}||${terms}`);
  const refused = [400, 413, 429];
  return {
    fanOut: {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      path: () => stockPath,
      body: (i) => JSON.stringify({ locationReference: orders.location, stock: i % 1000 }),
      expected: [204, 429],
    },
    invalidBodies: {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      path: () => stockPath,
      body: () => invalidBody,
      expected: refused,
    },
    expiredTokens: {
      method: 'GET',
      headers: { authorization: `Bearer ${orders.expiredToken}`, accept: 'application/json' },
      path: () => '/v1/items/skus',
      expected: [401],
    },
    largeHeaders: {
      method: 'GET',
      headers: { ...auth, 'x-filler': filler },
      path: () => '/v1/items/skus?pageSize=25',
      expected: [200, 429],
    },
    newFilters: {
      method: 'GET',
      headers: auth,
      path: (i) => `/v1/items/skus?pageSize=25&filterBy=${filterOf(i)}`,
      expected: [200, ...refused],
    },
  };
}

/**
 * Subscriptions to the attacker's receivers in turn, until the mock refuses one (its bound) or `orders.subscriptions`
 * are made.
 */
async function subscribe(orders: AttackerOrders, receivers: readonly string[]) {
  let made = 0;
  let refusal: string | null = null;
  while (made < orders.subscriptions) {
    const answer = await call('POST', `${orders.url}/v1/notifications/webhook/subscriptions`, {
      token: orders.token,
      body: {
        endpoint: `${receivers[made % receivers.length]}/hook/${made}`,
        eventName: orders.eventName,
        eventVersion: 1,
      },
    });
    if (answer.status === 429) {
      // As a client must (Errors, 429: "the caller retries after the indicated delay").
      await sleep(1000 * Number(answer.headers['retry-after'] ?? 1));
      continue;
    }
    if (answer.status !== 201) {
      refusal = `${answer.status} ${answer.json<{ code?: string }>().code ?? ''}`.trim();
      break;
    }
    made++;
  }
  return { made, refusal };
}

async function attack(orders: AttackerOrders): Promise<void> {
  const silent = new SilentReceiver();
  await silent.start();
  const hasty = await hastyReceiverUrl();
  // Below 1024, where no server the bench or the tests start can be bound meanwhile (common/closed-port.ts).
  const closed = `http://127.0.0.1:${await closedPort()}`;
  const { made, refusal } = await subscribe(orders, [silent.url, closed, hasty]);
  const plans = attackerPlans(orders);
  const perKind = orders.ratePerS / Object.keys(plans).length;
  process.stdout.write(`attacking ${JSON.stringify({ subscriptions: made, refusal })}\n`);
  const runs = await Promise.all(
    Object.entries(plans).map(async ([kind, plan]) => {
      const load = await runPacedLoad(orders.url, plan, {
        connections: 4,
        ratePerS: perKind,
        durationS: orders.seconds,
        maxRequests: Math.ceil(orders.seconds * perKind),
      });
      const { responses, errors, unexpected, statusCounts } = load;
      return [kind, { responses, errors, unexpected, statusCounts }] as const;
    }),
  );
  const report: AttackerReport = {
    subscriptions: made,
    refusal,
    silentConnectionsAtEnd: silent.connections,
    runs: Object.fromEntries(runs),
  };
  process.stdout.write(`result ${JSON.stringify(report)}\n`);
}

// The lowest CPU priority (nice 19, os.setPriority): another tenant's client runs on a machine of its own, and here
// it shares the bench machine's cores with the mock and the victim's client, whose latencies it must not stretch with
// its own work. It still gets every cycle they leave: its rate is reported (`attacker.*.sent`) and checked against
// the rate it was told.
try {
  setPriority(19);
} catch (error) {
  process.stderr.write(`noisy attacker: runs at its given priority (${(error as Error).message})\n`);
}
await attack(JSON.parse(process.env.NOISY_ATTACKER_ORDERS ?? '{}') as AttackerOrders);
