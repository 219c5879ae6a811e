/** What the listener reports for one verified delivery. */
export interface ReceivedEvent {
  readonly receivedAt: Date;
  /** `new`: first delivery of this event; `duplicate`: an event already received (answered 2xx, not processed again). */
  readonly kind: 'new' | 'duplicate';
  readonly eventId: string;
  readonly eventName: string;
  readonly eventVersion: number | null;
  readonly notificationId: string | null;
  readonly occurredAt: string | null;
  readonly data: Record<string, unknown>;
  /** Status answered by `--forward-to`, when forwarding. */
  readonly forwardStatus?: number;
}

/** Longest `data` summary on a readable line. */
const SHORT_DATA_CHARS = 120;

/** `HH:MM:SS.mmm` in UTC. */
export function clockTime(date: Date): string {
  return date.toISOString().slice(11, 23);
}

/** `key=value` pairs of the event data, cut to `max` characters with an ellipsis. */
function shortData(data: Record<string, unknown>, max = SHORT_DATA_CHARS): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    parts.push(`${key}=${/[\s"]/.test(text ?? '') ? JSON.stringify(text) : text}`);
  }
  const line = parts.join(' ');
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/**
 * One readable line: `<time> <eventName> v<version> <eventId> verified <short data>`, or `... duplicate (already
 * received)` for a repeated event; `-> <status>` tells the answer of the forward target.
 */
export function formatLine(event: ReceivedEvent): string {
  const head = `${clockTime(event.receivedAt)} ${event.eventName} v${event.eventVersion ?? '?'} ${event.eventId}`;
  const forwarded = event.forwardStatus !== undefined ? ` -> ${event.forwardStatus}` : '';
  if (event.kind === 'duplicate') return `${head} duplicate (already received; not processed again)${forwarded}`;
  const data = shortData(event.data);
  return `${head} verified${forwarded}${data ? ` ${data}` : ''}`;
}

/** One JSON object per line (`--json`). */
export function formatJson(event: ReceivedEvent): string {
  return JSON.stringify({
    type: event.kind === 'duplicate' ? 'duplicate' : 'event',
    receivedAt: event.receivedAt.toISOString(),
    verified: true,
    eventId: event.eventId,
    eventName: event.eventName,
    eventVersion: event.eventVersion,
    notificationId: event.notificationId,
    occurredAt: event.occurredAt,
    data: event.data,
    ...(event.forwardStatus !== undefined ? { forwardStatus: event.forwardStatus } : {}),
  });
}
