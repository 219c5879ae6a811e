import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent } from 'undici';
import { BLOCKED_CODE, type EndpointGuard } from './address.js';

/**
 * The undici agents of the webhook transport (./delivery.ts), in a module of their own so that undici is loaded with
 * the first delivery only: most mocks never deliver, and loading it was ~20 ms of every start (measured on the
 * compiled CLI). Keep-alive connections, no pipelining; with a `guard`, sockets connect only to what it lets through.
 */
export function deliveryAgent(guard: EndpointGuard | null): Agent {
  return new Agent({
    keepAliveTimeout: 10_000,
    connections: 128,
    pipelining: 1,
    ...(guard ? { connect: { lookup: guardedLookup(guard) } } : {}),
  });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets that refuses the addresses the guard refuses: it resolves every address of the host and fails
 * with `OPSAPI_BLOCKED_ENDPOINT` when any is refused, so the socket can only use checked addresses.
 */
const guardedLookup = (guard: EndpointGuard) =>
  function guardedLookup(
    hostname: string,
    options: { family?: number | string; all?: boolean; hints?: number },
    callback: LookupCallback,
  ): void {
    const family =
      options.family === 'IPv4'
        ? 4
        : options.family === 'IPv6'
          ? 6
          : typeof options.family === 'number'
            ? options.family
            : 0;
    dnsLookup(
      hostname,
      { family, all: true, ...(options.hints !== undefined ? { hints: options.hints } : {}) },
      (error, addresses) => {
        if (error) return callback(error, []);
        const list = addresses as LookupAddress[];
        if (list.length === 0 || list.some((a) => guard.refuses(hostname, a.address))) {
          const blocked: NodeJS.ErrnoException = new Error(
            `${hostname} resolves to a private, loopback or reserved address; refused (--allow-private-endpoints)`,
          );
          blocked.code = BLOCKED_CODE;
          return callback(blocked, []);
        }
        if (options.all) return callback(null, list);
        const first = list[0] as LookupAddress;
        return callback(null, first.address, first.family);
      },
    );
  };
