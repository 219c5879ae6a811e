import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_MOCK_URL } from '../../mock/options.js';
import { DEFAULT_JWT_SECRET, DEFAULT_ORG } from '../../mock/options.js';
import { flag, integer, orgName } from '../options.js';
import { targetOptions } from '../target-options.js';
import { ApiError, ListenApi, MockKeyError } from '../receiver/api.js';
import { adminTokenOf, MintError } from '../mint-on-mock.js';
import { chooseEvents, type EventChoice } from '../receiver/events.js';
import { clockTime, formatJson, formatLine } from '../receiver/format.js';
import { RecentSet } from '../receiver/recent-set.js';
import { startWebhookReceiver, type RunningReceiver } from '../receiver/server.js';

/** Default port of the local receiver: next to the mock's and the proxy's (4010, 4020), so all three run side by side. */
const DEFAULT_LISTEN_PORT = 4030;

/** Lifetime of the token minted for the listener; a fresh one is minted for the clean-up at exit. */
const TOKEN_SECONDS = 24 * 3600;

/** Event identifiers remembered for de-duplication. */
const SEEN_CAPACITY = 100_000;

interface ListenOptions {
  port: number;
  host: string;
  events?: string[];
  forwardTo?: string;
  json?: boolean;
  baseUrl: string;
  org: string;
  token?: string;
  jwtSecret: string;
  adminKey?: string;
  teamKey?: string;
  secret?: string;
  subscriptionId?: string[];
  publicUrl?: string;
}

const collect = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
];

function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError('expected an http or https URL');
  return value;
}

/**
 * `opsapi listen`: a local webhook receiver, like `stripe listen`. Subscribes itself on the mock, verifies every
 * signature on the raw bytes, drops duplicates by event id, prints each event (or one JSON object per line) and
 * optionally forwards it to a local app; removes its subscriptions on Ctrl-C / SIGTERM.
 */
export function listenCommand(): Command {
  return new Command('listen')
    .description(
      'Receive webhook notifications locally: subscribes a local receiver, verifies signatures, drops duplicates, prints or forwards each event; unsubscribes on exit.',
    )
    .addOption(
      flag('--port <port>', 'port of the local receiver (0: any free port)', 'LISTEN_PORT')
        .default(DEFAULT_LISTEN_PORT)
        .argParser(integer(0, 65535)),
    )
    .addOption(flag('--host <host>', 'address the receiver binds', 'LISTEN_HOST').default('127.0.0.1'))
    .addOption(
      flag(
        '--events <names>',
        'events to subscribe to, comma-separated, Name or Name@version (default: every event, latest version)',
        'LISTEN_EVENTS',
      ).argParser(collect),
    )
    .addOption(
      flag(
        '--forward-to <url>',
        'forward each verified event (raw body and headers) to this URL and answer with its status',
        'FORWARD_TO',
      ).argParser(httpUrl),
    )
    .option('--json', 'print one JSON object per line')
    .addOption(
      flag('--base-url <url>', 'the mock (or the API)', 'BASE_URL').default(DEFAULT_MOCK_URL).argParser(httpUrl),
    )
    .addOption(flag('--org <org>', 'tenant', 'ORG').default(DEFAULT_ORG).argParser(orgName))
    .addOption(
      flag(
        '--token <token>',
        'access token (default: an admin token minted with --team-key, or with --jwt-secret)',
        'TOKEN',
      ),
    )
    .addOption(flag('--jwt-secret <secret>', "the mock's --jwt-secret", 'JWT_SECRET').default(DEFAULT_JWT_SECRET))
    .addOption(targetOptions.adminKey())
    .addOption(targetOptions.teamKey())
    .addOption(
      flag(
        '--secret <secret>',
        'webhook signing secret (default: read from the mock, GET /__mock/webhook-secret)',
        'WEBHOOK_SECRET',
      ),
    )
    .addOption(
      flag(
        '--subscription-id <id>',
        'receive for existing subscriptions instead of subscribing (repeatable or comma-separated; kept at exit)',
        'SUBSCRIPTION_ID',
      ).argParser(collect),
    )
    .addOption(
      flag(
        '--public-url <url>',
        'URL the service calls to reach this receiver (default: http://<host>:<port>/)',
        'LISTEN_PUBLIC_URL',
      ).argParser(httpUrl),
    )
    .action(async (o: ListenOptions) => {
      // Exit explicitly: idle keep-alive connections to the API must not hold the process.
      process.exit(await listen(o));
    });
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const warn = (line: string) => process.stderr.write(`${clockTime(new Date())} warning: ${line}\n`);
const fail = (line: string, code = 1): number => {
  process.stderr.write(`opsapi listen: ${line}\n`);
  return code;
};

/**
 * Exit code of a failed API call, the rule conform and trigger follow (docs/DESIGN.md, "CLI and exit codes"): 2 when the API
 * could not be reached or refused the admin key (usage error or target unreachable), 1 when it answered something
 * unexpected.
 */
const exitCodeOf = (error: unknown): number =>
  error instanceof MockKeyError || (error instanceof ApiError && error.status === null) ? 2 : 1;

async function listen(o: ListenOptions): Promise<number> {
  if (o.subscriptionId?.length && o.events?.length)
    return fail(
      '--events and --subscription-id exclude each other: existing subscriptions already name their events',
      2,
    );
  const keys = { adminKey: o.adminKey || undefined, teamKey: o.teamKey || undefined };
  // With a team key, minted on the mock for the longest it gives a team (its limit may be under a day).
  const mint = () => adminTokenOf({ ...o, teamKey: keys.teamKey }, keys.teamKey ? undefined : TOKEN_SECONDS);
  let token = o.token;
  try {
    token ??= await mint();
  } catch (error) {
    if (error instanceof MintError) return fail(error.message, 2);
    throw error;
  }
  const api = new ListenApi(o.baseUrl, token, keys);

  let secret = o.secret;
  if (!secret) {
    try {
      secret = await api.webhookSecret();
    } catch (error) {
      const status = (error as ApiError).status;
      return fail(
        `${(error as Error).message}${status === 404 ? '; not a mock? pass the webhook secret with --secret' : ''}`,
        exitCodeOf(error),
      );
    }
  }

  let choices: EventChoice[] = [];
  let existing: string[] = [];
  try {
    if (o.subscriptionId?.length) {
      const all = await api.subscriptions();
      const missing = o.subscriptionId.filter((id) => !all.some((s) => s.id === id));
      if (missing.length) return fail(`no subscription ${missing.join(', ')} in org ${o.org}`);
      existing = o.subscriptionId;
      choices = all
        .filter((s) => existing.includes(s.id))
        .map((s) => ({ eventName: s.eventName, eventVersion: s.eventVersion }));
    } else {
      const chosen = chooseEvents(await api.eventVersions(), o.events);
      if (!chosen.ok) return fail(chosen.error, 2);
      choices = chosen.value;
    }
  } catch (error) {
    return fail((error as Error).message, exitCodeOf(error));
  }

  let receiver: RunningReceiver;
  try {
    receiver = await startWebhookReceiver({
      host: o.host,
      port: o.port,
      secret,
      forwardTo: o.forwardTo ?? null,
      seen: new RecentSet(SEEN_CAPACITY),
      onEvent: (event) => say(o.json ? formatJson(event) : formatLine(event)),
      onWarning: warn,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(
      code === 'EADDRINUSE'
        ? `${o.host}:${o.port} is already in use; pick another --port`
        : `cannot listen on ${o.host}:${o.port}: ${(error as Error).message}`,
      2,
    );
  }
  const endpoint = o.publicUrl ?? `${receiver.url}/`;

  const created: string[] = [];
  if (existing.length) {
    const all = await api.subscriptions().catch(() => []);
    for (const s of all)
      if (existing.includes(s.id) && s.endpoint !== endpoint)
        warn(`subscription ${s.id} delivers to ${s.endpoint}, not to this listener (${endpoint})`);
  } else {
    try {
      // A few at a time: quick, and gentle with a rate-limited API.
      for (let i = 0; i < choices.length; i += 8) {
        const batch = await Promise.allSettled(
          choices.slice(i, i + 8).map((c) => api.subscribe(endpoint, c.eventName, c.eventVersion)),
        );
        for (const r of batch) if (r.status === 'fulfilled') created.push(r.value.id);
        const failed = batch.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
      }
    } catch (error) {
      await Promise.allSettled(created.map((id) => api.unsubscribe(id)));
      await receiver.close();
      return fail(`cannot subscribe: ${(error as Error).message}`, exitCodeOf(error));
    }
  }
  const ids = existing.length ? existing : created;
  const ready = `listening on ${receiver.url}, subscribed to ${choices.length} event${choices.length === 1 ? '' : 's'} of org ${o.org} (${existing.length ? 'existing ' : ''}subscription ids ${ids.join(', ')})`;
  say(
    o.json
      ? JSON.stringify({
          type: 'listening',
          url: receiver.url,
          endpoint,
          org: o.org,
          events: choices,
          subscriptionIds: ids,
          forwardTo: o.forwardTo ?? null,
          message: ready,
        })
      : ready,
  );

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        // A second signal: leave at once.
        process.exit(130);
      }
      stopping = true;
      void (async () => {
        let failures = 0;
        if (created.length) {
          // The token may have expired during a long session: a fresh one when it was minted here.
          if (!o.token) api.useToken(await mint().catch(() => token ?? ''));
          const results = await Promise.allSettled(created.map((id) => api.unsubscribe(id)));
          for (const [i, r] of results.entries()) {
            if (r.status === 'rejected') {
              failures++;
              warn(`could not delete subscription ${created[i]}: ${(r.reason as Error).message}`);
            }
          }
        }
        await receiver.close();
        process.stderr.write(
          `opsapi listen: ${signal}, stopped; deleted ${created.length - failures} of ${created.length} subscriptions${existing.length ? ` (kept ${existing.length} existing)` : ''}\n`,
        );
        resolve(failures ? 1 : 0);
      })();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
