/** An event name and version to subscribe to. */
export interface EventChoice {
  readonly eventName: string;
  readonly eventVersion: number;
}

/**
 * The events `opsapi listen` subscribes to: every name of the environment at its latest version when nothing is
 * requested; otherwise each requested `Name` (latest version) or `Name@version`. Unknown names or versions are an
 * error naming them. Duplicates are dropped; the order is the environment's.
 */
export function chooseEvents(
  available: readonly EventChoice[],
  requested: readonly string[] | undefined,
): { ok: true; value: EventChoice[] } | { ok: false; error: string } {
  const latest = new Map<string, number>();
  for (const { eventName, eventVersion } of available)
    latest.set(eventName, Math.max(latest.get(eventName) ?? 0, eventVersion));
  if (!requested || requested.length === 0)
    return { ok: true, value: [...latest].map(([eventName, eventVersion]) => ({ eventName, eventVersion })) };

  const wanted = new Set<string>();
  const unknown: string[] = [];
  for (const item of requested) {
    const match = /^([^@\s]+?)(?:@v?(\d+))?$/.exec(item.trim());
    const name = match?.[1] ?? item;
    const newest = latest.get(name);
    if (!match || newest === undefined) {
      unknown.push(item);
      continue;
    }
    const version = match[2] === undefined ? newest : Number(match[2]);
    if (!available.some((e) => e.eventName === name && e.eventVersion === version)) {
      unknown.push(item);
      continue;
    }
    wanted.add(`${name}@${version}`);
  }
  if (unknown.length > 0) {
    return {
      ok: false,
      error: `unknown event${unknown.length === 1 ? '' : 's'} ${unknown.map((u) => `"${u}"`).join(', ')}; the environment has ${latest.size} event names (GET /v1/notifications/events/versions), e.g. ${[...latest.keys()].slice(0, 3).join(', ')}`,
    };
  }
  return {
    ok: true,
    value: available
      .filter((e) => wanted.has(`${e.eventName}@${e.eventVersion}`))
      .map(({ eventName, eventVersion }) => ({ eventName, eventVersion })),
  };
}
