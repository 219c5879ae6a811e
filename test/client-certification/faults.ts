/**
 * The known faults of the reference client (./client.ts): each breaks exactly one of the reference's rules for clients
 * and receivers, so the client checks of the mock (docs/DESIGN.md, "Client certification") are proven to fail on it and
 * on nothing else. A fault is a switch of the one reference client, not a copy of it.
 */
export const CLIENT_FAULTS = {
  // Authentication, point 1: "Requests carry credentials in the Authorization header with the format Bearer <ACCESS_TOKEN>".
  'bare-token': {
    check: 'client.auth-bearer',
    does: 'sends the access token of its list requests without the Bearer scheme (the mock answers them 401)',
  },
  // Data formats: "Content-Type: application/json for bodies".
  'no-content-type': {
    check: 'client.body-content-type',
    does: 'sends its request bodies as bytes without a Content-Type header (the mock answers them 415)',
  },
  // List and search endpoints: "pageNumber ... greater than or equal to 1".
  'page-zero': {
    check: 'client.paging-bounds',
    does: 'counts pages from 0, so the first page it asks is pageNumber=0 (the mock answers it 400)',
  },
  // List and search endpoints: "Inside a URL query string && is sent percent-encoded (%26%26)".
  'raw-and': {
    check: 'client.filter-encoding',
    does: 'puts && of filterBy into the query string as is, which splits it',
  },
  // List and search endpoints: "A client walks all pages by requesting pages while pageNumber is less than totalPages".
  'past-last': {
    check: 'client.page-walk-stops',
    does: 'walks while pageNumber <= totalPages, asking one page past the last',
  },
  'stop-early': {
    check: 'client.page-walk-complete',
    does: 'stops a walk after its second page, whatever totalPages says',
  },
  // Errors, 429: "the caller retries after the indicated delay".
  'retry-at-once': {
    check: 'client.retry-after-wait',
    does: 'sends a request refused with 429 again at once, without waiting the indicated delay',
  },
  'never-retry': {
    check: 'client.retry-after-retries',
    does: 'gives up a request refused with 429 (the step it belonged to fails; the others go on)',
  },
  // Events, point 4: "The receiver answers with a 2xx status to accept the event".
  'refuse-valid': {
    check: 'client.receiver-accepts',
    does: 'answers 500 to the first delivery of an event in the compact bytes the service sends (it stores and processes the event first); a repeated delivery, or one formatted otherwise, is accepted, so the other receiver rules still hold',
  },
  // Authentication, point 5: "Re-serialising parsed JSON before checking may break the match".
  reserialise: {
    check: 'client.receiver-raw-body',
    does: 'verifies the signature over JSON.stringify(JSON.parse(body)) instead of the raw bytes',
  },
  // Authentication, point 5: a signature that is wrong or "not 64 hexadecimal characters is invalid".
  'process-forged': {
    check: 'client.receiver-rejects-forged',
    does: 'answers 401 to an invalid signature but processes the delivery anyway (it reads the entity it names)',
  },
  'accept-forged': {
    check: 'client.receiver-refuses-forged',
    does: 'answers 200 to an invalid signature (without processing the delivery)',
  },
  // Events, point 4: "Receivers should answer quickly and process in the background".
  slow: {
    check: 'client.receiver-fast',
    does: 'answers each delivery only after a delay longer than the bound the checks started with',
  },
  // Events, point 4: receivers "should store the event identifier to drop duplicates".
  'no-dedup': {
    check: 'client.receiver-dedup',
    does: 'keeps no event identifiers, so it processes a duplicate delivery again',
  },
  // Events, point 5: "the receiver then reads the current state with the API using the identifier received".
  'no-read': {
    check: 'client.reads-after-notification',
    does: 'accepts deliveries and never reads the state they announce',
  },
  // Events, point 2: names and versions "are read from GET /v1/notifications/events/versions; names are not to be constructed by hand".
  'hand-made-name': {
    check: 'client.event-names-from-versions',
    does: 'subscribes with an event name and version written in its code, without reading the versions endpoint',
  },
  // Events, point 3 and Versioning: a subscription binds an eventName and eventVersion of the environment.
  'unoffered-version': {
    check: 'client.subscribes-offered-versions',
    does: 'reads the versions, then subscribes to a version above the highest one offered',
  },
} as const;

export type ClientFault = keyof typeof CLIENT_FAULTS;
