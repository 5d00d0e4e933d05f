import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A throwaway PostgreSQL cluster owned by one test file. */
export interface PostgresCluster {
  /** URL of the cluster's `postgres` database. */
  url: string;
  /** Creates a fresh, empty database and returns its URL (one per test keeps tests independent). */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (`pg_ctl stop -m fast`) and deletes its files. */
  stop(): Promise<void>;
  /**
   * Stops the server and keeps its files, until `start` runs it again on the same port: a database
   * restart as its clients see it (their sessions end, connects are refused meanwhile).
   */
  pause(): Promise<{ start(): Promise<void> }>;
}

/** Who runs the server binaries: PostgreSQL refuses to run as root. */
interface Runner {
  /** Prefix that runs a command as the cluster's owner (empty when we are not root). */
  wrap(command: string, args: string[]): [string, string[]];
  uid?: number;
  gid?: number;
}

const START_ATTEMPTS = 3;
const READY_TIMEOUT_MS = 30_000;
let databaseCounter = 0;

/**
 * Starts a PostgreSQL server with the machine's binaries (`initdb`, `pg_ctl` on PATH) in a temp
 * dir, listening on 127.0.0.1 at a free port with its socket in the temp dir, trust auth, and
 * durability switched off (tests only). When we run as root the data dir is handed to the
 * `postgres` OS user (or `nobody`) and the binaries run through `runuser` (or `su`).
 * `keepIn`: the cluster lives in that folder instead, made on first use and kept by `stop()`
 * (the search benchmark keeps its 1M-record load between runs this way).
 */
export async function startPostgres(options: { keepIn?: string } = {}): Promise<PostgresCluster> {
  const kept = options.keepIn;
  const dir = kept ?? (await mkdtemp(join(tmpdir(), 'ce-pg-')));
  const runner = runnerFor();
  if (kept) await mkdir(kept, { recursive: true });
  if (runner.uid !== undefined && runner.gid !== undefined) await chown(dir, runner.uid, runner.gid);
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const remove = () => (kept ? Promise.resolve() : rm(dir, { recursive: true, force: true }));
  try {
    if (!existsSync(join(data, 'PG_VERSION')))
      await run(runner, 'initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], dir);
  } catch (error) {
    await remove();
    throw error;
  }

  const startOn = (port: number) => {
    const options = [
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${dir}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=100',
    ].join(' ');
    return run(runner, 'pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '30', 'start'], dir);
  };
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await startOn(port);
      break;
    } catch (error) {
      // Another process may have taken the port between our probe and the server's bind.
      if (attempt >= START_ATTEMPTS) {
        const serverLog = await readFile(log, 'utf8').catch(() => '');
        await remove();
        throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${serverLog}`);
      }
    }
  }

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  // If the test process dies without afterAll, do not leave our server running.
  const killOnExit = () => killPostmaster(data);
  process.once('exit', killOnExit);
  let stopped = false;

  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', killOnExit);
    try {
      await run(runner, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop'], dir);
    } catch {
      killPostmaster(data);
    }
    await remove();
  };

  try {
    await waitUntilReady(url);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url,
    stop,
    async pause() {
      await run(runner, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop'], dir);
      return {
        start: async () => {
          await startOn(port);
          await waitUntilReady(url);
        },
      };
    },
    async createDatabase(name = `test_${process.pid}_${++databaseCounter}`) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unsafe database name ${name}`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
  };
}

function runnerFor(): Runner {
  if (process.getuid?.() !== 0) return { wrap: (command, args) => [command, args] };
  const user = ['postgres', 'nobody'].find((name) => idOf(name, '-u') !== undefined);
  if (!user) throw new Error('Running as root and neither a postgres nor a nobody user exists to run PostgreSQL.');
  const uid = idOf(user, '-u') as number;
  const gid = idOf(user, '-g') as number;
  if (existsSync('/usr/sbin/runuser') || existsSync('/sbin/runuser')) {
    return { uid, gid, wrap: (command, args) => ['runuser', ['-u', user, '--', command, ...args]] };
  }
  const quoted = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;
  return {
    uid,
    gid,
    wrap: (command, args) => ['su', [user, '-s', '/bin/sh', '-c', [command, ...args].map(quoted).join(' ')]],
  };
}

function idOf(user: string, flag: '-u' | '-g'): number | undefined {
  try {
    return Number(execFileSync('id', [flag, user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    return undefined;
  }
}

function run(runner: Runner, command: string, args: string[], cwd: string): Promise<string> {
  const [file, argv] = runner.wrap(command, args);
  return new Promise((resolve, reject) => {
    // The working directory is the cluster's own (the postgres user may not read ours). The server
    // writes to the -l log file, not to pg_ctl's pipes, so the callback fires when pg_ctl exits.
    execFile(file, argv, { encoding: 'utf8', timeout: 60_000, cwd }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} failed: ${error.message}\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(url: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Last resort: signal the postmaster we started (its pid is the first line of postmaster.pid). */
function killPostmaster(data: string): void {
  try {
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (pid > 0) process.kill(pid, 'SIGQUIT');
  } catch {
    // Already gone.
  }
}

/**
 * Locks `table` from a session of its own, runs `start`, and terminates every session that comes
 * to wait on that lock (the first time any does), then lets the lock go; returns their pids. The
 * waiting sessions are matched in pg_locks, not by pg_stat_activity's query: a named statement
 * waits while it is parsed, before the server reports it running (it still shows its previous
 * query, idle). For tests of a call whose database session ends under it.
 */
export async function endSessionsWaitingOn(url: string, table: string, start: () => void, stillAlive: () => void = () => undefined): Promise<number[]> {
  const locker = new pg.Client({ connectionString: url });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    start();
    for (let waited = 0; waited <= 60_000; waited += 10) {
      const { rows } = await locker.query<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE NOT granted AND locktype = 'relation' AND relation = $1::regclass AND pid <> pg_backend_pid()`,
        [table],
      );
      for (const { pid } of rows) await locker.query('SELECT pg_terminate_backend($1)', [pid]);
      if (rows.length > 0) return rows.map((row) => row.pid);
      stillAlive();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no session came to wait on ${table}`);
  } finally {
    await locker.query('ROLLBACK');
    await locker.end();
  }
}
