import type { Level, ReportFamily } from '../../common/report/types.js';
import { referenceSentence, type SentenceId } from '../../spec/reference/index.js';
import { CLIENT_SECTIONS } from '../../spec/reference/sentences.js';

/**
 * The table of client checks (docs/DESIGN.md, "Client certification"): what the mock judges of a client and its
 * webhook receiver, each with a stable id, the clause of the reference it proves (the reference's own words), a level
 * (MUST where the reference states a rule for clients, SHOULD where it says "should" or the contract infers the
 * bound), and what would exercise it when the client's traffic did not.
 */

/** The classes of client checks, in report order. */
export type ClientFamily = 'requests' | 'lists' | 'rate-limit' | 'receiver' | 'events';

export const CLIENT_FAMILIES: readonly ReportFamily<ClientFamily>[] = [
  { id: 'requests', title: 'Requests: credentials and bodies' },
  { id: 'lists', title: 'Lists: paging and filters' },
  { id: 'rate-limit', title: 'Rate limits: the retry delay' },
  { id: 'receiver', title: 'Webhook receiver' },
  { id: 'events', title: 'Events and subscriptions' },
];

type ClientSections = typeof CLIENT_SECTIONS;
/** The id of a sentence of the rules for clients (`lists.walk`). */
export type ClientSentenceId = { [S in keyof ClientSections]: keyof ClientSections[S] }[keyof ClientSections];

const CLIENT_BY_ID = new Map<string, { section: string; text: string }>(
  Object.entries(CLIENT_SECTIONS).flatMap(([section, sentences]) =>
    Object.entries(sentences).map(([id, text]) => [id, { section, text }] as const),
  ),
);

/** A sentence the client checks quote: of the rules for clients, or of the contract's own table. */
function quoted(id: ClientSentenceId | SentenceId): { section: string; text: string } {
  return CLIENT_BY_ID.get(id) ?? referenceSentence(id as SentenceId);
}

/** `Authentication, point 1: "Requests carry credentials ..."`: the section and the words of the reference. */
function clause(ids: readonly (ClientSentenceId | SentenceId)[], note?: string): string {
  const sentences = ids.map(quoted);
  const section = [...new Set(sentences.map((s) => s.section))].join('; ');
  return `${section}: ${sentences.map((s) => `"${s.text}"`).join(' ')}${note ? ` (${note})` : ''}`;
}

export interface ClientCheckDef {
  id: string;
  title: string;
  family: ClientFamily;
  level: Level;
  /** The sentences it rests on, by id. */
  quotes: readonly (ClientSentenceId | SentenceId)[];
  clause: string;
  /** What would exercise it: the end of a skip's reason. */
  exercisedBy: string;
}

function check(def: Omit<ClientCheckDef, 'clause'> & { note?: string }): ClientCheckDef {
  const { note, ...rest } = def;
  return { ...rest, clause: clause(def.quotes, note) };
}

const CERTIFY = 'start the checks with the profile certify';

/**
 * What the rate-limit checks take for the refused request sent again, and what they cannot tell apart (the limit of
 * judging from outside: a client's reason for a request is not in its traffic).
 */
const SENT_AGAIN =
  'the same method, path, query and body is the refused request sent again, unless it reads the entity of a new ' +
  "event delivered after the refusal (then it is that event's read); the same request sent for another reason the " +
  'traffic does not show cannot be told from a retry and counts as one';

/** The 17 checks, in report order (ids fixed: tools and baselines name them). */
export const CLIENT_CHECKS: readonly ClientCheckDef[] = [
  check({
    id: 'client.auth-bearer',
    title: 'Credentials are sent as Authorization: Bearer <token>',
    family: 'requests',
    level: 'MUST',
    quotes: ['auth.1.bearer'],
    note: 'the scheme name is case-insensitive and one or more spaces separate it from the token, RFC 9110 section 11.4',
    exercisedBy: 'a /v1 request with an Authorization header',
  }),
  check({
    id: 'client.body-content-type',
    title: 'A request body is sent with Content-Type: application/json',
    family: 'requests',
    level: 'MUST',
    quotes: ['service.data-formats'],
    exercisedBy: 'a /v1 request with a body (a write, or a search)',
  }),
  check({
    id: 'client.paging-bounds',
    title: 'pageNumber is at least 1 and pageSize between 1 and 1000',
    family: 'lists',
    level: 'MUST',
    quotes: ['lists.pageNumber', 'lists.pageSize'],
    exercisedBy: 'a request to a list or search endpoint',
  }),
  check({
    id: 'client.filter-encoding',
    title: '&& in filterBy is sent percent-encoded in a query string',
    family: 'lists',
    level: 'MUST',
    quotes: ['lists.filter-encoding'],
    note: 'a raw && splits the query string, which the mock sees',
    exercisedBy: 'a list request whose filterBy combines conditions with && in the query string',
  }),
  check({
    id: 'client.page-walk-stops',
    title: 'No page is asked past the totalPages the client was told',
    family: 'lists',
    level: 'MUST',
    quotes: ['lists.walk'],
    note: 'per list, page size, filter and sort',
    exercisedBy: 'a walk of a list past its first page (pageNumber 2 or more after an answer with totalPages)',
  }),
  check({
    id: 'client.page-walk-complete',
    title: 'A walk of a list reads every page up to totalPages',
    family: 'lists',
    level: 'SHOULD',
    quotes: ['lists.walk'],
    note: 'inferred: a client that reads page 2 or later is walking the list; with the same size, filter and sort',
    exercisedBy: 'a walk of a list past its first page',
  }),
  check({
    id: 'client.retry-after-wait',
    title: 'A request refused with 429 is not sent again before the indicated delay',
    family: 'rate-limit',
    level: 'MUST',
    quotes: ['errors.pair.429'],
    note: `the delay in the header the mock names, --decisions included; ${SENT_AGAIN}`,
    exercisedBy: `a 429 answer (${CERTIFY}, which injects some, or exceed the rate limit)`,
  }),
  check({
    id: 'client.retry-after-retries',
    title: 'A request refused with 429 is sent again after the delay',
    family: 'rate-limit',
    level: 'SHOULD',
    quotes: ['errors.pair.429'],
    note: `inferred: a retry is expected within the observation window after the delay; ${SENT_AGAIN}`,
    exercisedBy: `a 429 answer (${CERTIFY}, which injects some, or exceed the rate limit)`,
  }),
  check({
    id: 'client.receiver-accepts',
    title: 'Validly signed deliveries are answered 2xx',
    family: 'receiver',
    level: 'MUST',
    quotes: ['events.4.accept'],
    exercisedBy: 'a notification delivered to a subscription the client made through /v1',
  }),
  check({
    id: 'client.receiver-raw-body',
    title: 'A valid delivery whose bytes differ from any re-serialisation of its JSON is accepted',
    family: 'receiver',
    level: 'MUST',
    quotes: ['auth.5.receiver', 'auth.5.reserialising'],
    exercisedBy: `a notification delivered to a subscription the client made (${CERTIFY})`,
  }),
  check({
    id: 'client.receiver-rejects-forged',
    title: 'A wrongly signed or malformed-signature delivery is not processed',
    family: 'receiver',
    level: 'MUST',
    quotes: ['auth.5.receiver'],
    note: 'not processed: the entity named only by such deliveries is not read afterwards',
    exercisedBy: `a notification delivered to a subscription the client made (${CERTIFY})`,
  }),
  check({
    id: 'client.receiver-refuses-forged',
    title: 'A wrongly signed or malformed-signature delivery is answered with a non-2xx status',
    family: 'receiver',
    level: 'SHOULD',
    quotes: ['auth.5.receiver'],
    note: 'inferred: the status of a refusal is not shown',
    exercisedBy: `a notification delivered to a subscription the client made (${CERTIFY})`,
  }),
  check({
    id: 'client.receiver-fast',
    title: 'Deliveries are answered quickly',
    family: 'receiver',
    level: 'SHOULD',
    quotes: ['events.4.receivers'],
    note: 'inferred bound: answerWithinMs, 2 s by default',
    exercisedBy: 'a notification delivered to a subscription the client made through /v1',
  }),
  check({
    id: 'client.receiver-dedup',
    title: 'A duplicate delivery is accepted and not processed twice',
    family: 'receiver',
    level: 'SHOULD',
    quotes: ['events.4.receivers'],
    note: 'not processed twice: the reads that followed the first delivery are not repeated',
    exercisedBy: `a notification delivered to a subscription the client made (${CERTIFY}, which sends it twice)`,
  }),
  check({
    id: 'client.reads-after-notification',
    title: "After a delivery the client reads the named entity's current state",
    family: 'events',
    level: 'SHOULD',
    quotes: ['events.5.read-state'],
    note: 'inferred window: readWithinMs, 5 s by default; events no operation reads are left out',
    exercisedBy: 'a delivery of an event whose entity an operation reads (a SKU or asset event)',
  }),
  check({
    id: 'client.event-names-from-versions',
    title: 'Subscriptions are created after reading the events or versions endpoint',
    family: 'events',
    level: 'SHOULD',
    quotes: ['events.2.read-names'],
    exercisedBy: 'a subscription created through POST /v1/notifications/webhook/subscriptions',
  }),
  check({
    id: 'client.subscribes-offered-versions',
    title: 'Subscriptions name an event name and version the environment offers',
    family: 'events',
    level: 'SHOULD',
    quotes: ['events.3.subscription', 'versioning.3.run-time'],
    exercisedBy: 'a subscription created through POST /v1/notifications/webhook/subscriptions',
  }),
];

/** A rule of the reference no observer outside the client can judge: listed in the report, never passed. */
export interface NotObservable {
  id: string;
  title: string;
  clause: string;
  reason: string;
}

export const NOT_OBSERVABLE: readonly NotObservable[] = [
  {
    id: 'client.receiver-constant-time',
    title: 'The signature is compared in constant time',
    clause: clause(['auth.5.receiver']),
    reason: 'not observable from outside: the timing of one comparison is lost in the network',
  },
  {
    id: 'client.receiver-background',
    title: 'Deliveries are processed in the background',
    clause: clause(['events.4.receivers']),
    reason: 'not observable from outside: only the time of the answer is seen (client.receiver-fast judges it)',
  },
  {
    id: 'client.versions-tested',
    title: 'Event versions are not mixed without testing the data received',
    clause: clause(['versioning.2.mix']),
    reason: "not observable from outside: testing happens in the client's own code",
  },
];
