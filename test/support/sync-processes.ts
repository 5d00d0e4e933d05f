import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { connect, findManifest } from '../../engine/index.js';
import { CLI, runCli } from './cli.js';
import { call } from './http-call.js';

/** What `connector-engine sandbox` prints on its first line: per connector type, where and how to connect. */
export type SandboxInfo = Record<string, { base_url: string; credentials: Record<string, unknown>; config: Record<string, unknown> }>;

/** A CLI process the test started; every one is killed by {@link killAll}. */
export interface EngineProcess {
  child: ChildProcess;
  /** Every stdout line so far. */
  lines: string[];
  /** The stdout lines that are JSON objects (pino logs). */
  logs(): Record<string, unknown>[];
  stderr(): string;
  /** Resolves when the process has ended and all its output has been read. */
  exited(): Promise<void>;
}

const started: EngineProcess[] = [];

function track(child: ChildProcess): EngineProcess {
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  // 'close' (not 'exit'): the process has ended and its stdout has been read to the end.
  const close = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const proc: EngineProcess = {
    child,
    lines,
    logs: () =>
      lines.flatMap((line) => {
        try {
          const value = JSON.parse(line) as unknown;
          return value && typeof value === 'object' ? [value as Record<string, unknown>] : [];
        } catch {
          return [];
        }
      }),
    stderr: () => stderr,
    exited: () => close,
  };
  started.push(proc);
  return proc;
}

/** Kills every process this module started that still runs (SIGKILL: nothing of theirs must survive the file). */
export async function killAll(): Promise<void> {
  await Promise.all(
    started.map(async (proc) => {
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
      await proc.exited();
    }),
  );
}

/** Kills a process with SIGKILL (no shutdown code runs) and waits until it is gone. */
export async function crash(proc: EngineProcess): Promise<void> {
  proc.child.kill('SIGKILL');
  await proc.exited();
}

/** Starts `connector-engine sandbox` as its own process and resolves with its first stdout line, parsed. */
export async function startSandboxProcess(records: number): Promise<{ proc: EngineProcess; info: SandboxInfo }> {
  const child = spawn(process.execPath, [CLI, 'sandbox', '--records', String(records), '--no-rate-limits'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = track(child);
  const line = await waitFor(() => proc.lines[0], { what: 'the sandbox JSON line', timeoutMs: 60_000, alive: proc });
  return { proc, info: JSON.parse(line) as SandboxInfo };
}

/** ENGINE_UPSTREAM_<TYPE> variables routing every connector type to a sandbox. */
export function upstreamEnv(info: SandboxInfo): Record<string, string> {
  return Object.fromEntries(Object.entries(info).map(([type, upstream]) => [`ENGINE_UPSTREAM_${type.toUpperCase().replace(/-/g, '_')}`, upstream.base_url]));
}

/** A `connector-engine serve` process and the URL it listens on. */
export interface ServeProcess extends EngineProcess {
  url: string;
}

/** Starts `connector-engine serve --port 0 [args]` with `env` added and waits for its listening line. */
export async function startServe(env: Record<string, string>, args: string[] = []): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ENGINE_LOG_LEVEL: 'info', ...env },
    cwd: mkdtempSync(`${tmpdir()}/sync-serve-`),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = track(child);
  const url = await waitFor(
    () => {
      for (const line of proc.lines) {
        const match = /connector-engine listening on (http:\/\/\S+?)"/.exec(line);
        if (match) return match[1];
      }
      return undefined;
    },
    { what: 'serve to listen', timeoutMs: 30_000, alive: proc },
  );
  return Object.assign(proc, { url });
}

/**
 * Polls `probe` until it returns something other than undefined/false. A bounded wait, not a
 * timed assertion: the bound only turns a hang into a failure that says what was awaited.
 */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  options: { what: string; timeoutMs?: number; intervalMs?: number; alive?: EngineProcess },
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    const child = options.alive?.child;
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`process exited (${child.exitCode ?? child.signalCode}) while waiting for ${options.what}: ${options.alive!.stderr()}`);
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${options.what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}

/** Creates a platform client with the CLI and returns a token of it for `externalUserId`. */
export async function platformToken(url: string, databaseUrl: string, externalUserId = 'u1'): Promise<string> {
  const created = await runCli(['clients', 'create', '--name', 'sync-processes', '--database-url', databaseUrl]);
  if (created.code !== 0) throw new Error(`clients create failed: ${created.stderr}`);
  const client = JSON.parse(created.stdout) as { client_id: string; client_secret: string };
  const answer = await call(url, 'POST', '/v1/auth/token', { body: { ...client, external_user_id: externalUserId } });
  if (answer.status !== 200) throw new Error(`token: ${JSON.stringify(answer.body)}`);
  return answer.body.access_token as string;
}

/** Creates a connector of `type` with the sandbox's credentials and config; returns its id. */
export async function createConnector(url: string, token: string, info: SandboxInfo, type: string, externalUserId = 'u1'): Promise<string> {
  const answer = await call(url, 'POST', '/v1/integrations/connectors', {
    body: { external_user_id: externalUserId, connector_type: type, credentials: info[type]!.credentials, config: info[type]!.config },
    token,
  });
  if (answer.status !== 201) throw new Error(`create ${type}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.id as string;
}

/** GET .../sync of a connector. */
export async function syncStatus(
  url: string,
  token: string,
  id: string,
): Promise<{ running: boolean; entities: Array<{ entity: string; status: string; mode: string; records: number; last_error: string | null }> }> {
  const answer = await call(url, 'GET', `/api/v1/connectors/sources/${id}/sync`, { token });
  if (answer.status !== 200) throw new Error(`sync status: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Every id in an entity's synchronized copy, paging through `search` with its cursor (duplicates kept). */
export async function copyIds(url: string, token: string, id: string, entity: string, pageSize = 2500): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const answer = await call(url, 'POST', `/api/v1/connectors/sources/${id}/execute`, {
      body: { entity, action: 'search', params: { query: {}, limit: pageSize, fields: ['id'], ...(cursor ? { cursor } : {}) } },
      token,
    });
    if (answer.status !== 200) throw new Error(`search ${entity}: ${answer.status} ${JSON.stringify(answer.body)}`);
    for (const hit of answer.body.hits as Array<{ id: string }>) ids.push(String(hit.id));
    cursor = answer.body.next_cursor ?? undefined;
  } while (cursor);
  return ids;
}

/**
 * Every id the upstream holds for each entity with a sync plan, read through the library with the
 * plan's own list calls (all pages, no client-side rate limit): what a complete pass must copy.
 */
export async function planIds(info: SandboxInfo, type: string): Promise<Record<string, string[]>> {
  const upstream = info[type]!;
  const connection = connect(type, { credentials: upstream.credentials, config: upstream.config, baseUrl: upstream.base_url, rateLimit: false });
  const out: Record<string, string[]> = {};
  try {
    for (const [entity, spec] of Object.entries(findManifest(type).manifest.entities)) {
      if (!spec.sync) continue;
      const ids = new Set<string>();
      for (const read of Array.isArray(spec.sync.read) ? spec.sync.read : [spec.sync.read]) {
        if (read.for_each?.length) throw new Error(`${type} ${entity}: partitioned plans are not listed here`);
        for await (const record of connection.records(read.entity ?? entity, read.action, read.params ?? {})) {
          ids.add(String(spec.sync.id.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], record)));
        }
      }
      out[entity] = [...ids];
    }
  } finally {
    await connection.close();
  }
  return out;
}

/** The `sync: pass started` log lines of processes, as [process index, connector id]. */
export function passesStarted(processes: EngineProcess[]): Array<{ process: number; connector: string }> {
  return processes.flatMap((proc, index) =>
    proc
      .logs()
      .filter((log) => log.msg === 'sync: pass started' && typeof log.connector === 'string')
      .map((log) => ({ process: index, connector: log.connector as string })),
  );
}
