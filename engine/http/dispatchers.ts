import { Agent, type Dispatcher } from 'undici';
import { guardedLookup } from './guarded-lookup.js';

// Idle keep-alive sockets close after this; undici unrefs them, so they never hold a process open.
const KEEP_ALIVE_MS = 10_000;

let plain: Agent | undefined;
let guarded: Agent | undefined;

/**
 * The undici connection pool for origins the operator named (the sandbox, a proxy): trusted as
 * named, so no address check. One per process, built on first use: keep-alive connections are
 * shared by every connector that calls the same origin.
 */
export function trustedDispatcher(): Dispatcher {
  plain ??= new Agent({ keepAliveTimeout: KEEP_ALIVE_MS });
  return plain;
}

/**
 * The undici connection pool for manifest-listed hosts: every new connection resolves its host
 * through the guarded lookup, so only public unicast addresses are connected to (DESIGN.md §6).
 */
export function guardedDispatcher(): Dispatcher {
  guarded ??= new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, connect: { lookup: guardedLookup } });
  return guarded;
}
