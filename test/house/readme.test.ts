import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect, promisify } from 'node:util';
import { expect, onTestFinished, test } from 'vitest';
import { connect, findManifest } from '../../engine/index.js';
import { startSandbox } from '../../engine/sandbox/index.js';
import { upstreamRecords } from '../support/sync-upstream.js';

/** The deals `serve --sandbox` serves: a sandbox with the same (default) seed, read the way the sync reads them. */
async function fakeDeals() {
  const sandbox = await startSandbox({});
  const { base_url, credentials } = sandbox.upstreams.hubspot!;
  const hubspot = connect<string>('hubspot', { credentials, baseUrl: base_url });
  try {
    return await upstreamRecords(hubspot, findManifest('hubspot').manifest, 'deals');
  } finally {
    await hubspot.close();
    await sandbox.close();
  }
}

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

function block(lang: string, marker: string): string {
  const found = [...readme.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1] as string).find((b) => b.includes(marker));
  if (!found) throw new Error(`README has no ${lang} block with ${marker}`);
  return found;
}

/** A port nothing listens on now (the kernel's pick for port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

// The examples run inside the package folder, as the README says, so `connector-engine` resolves to this package.
function scratchDir(): string {
  const base = join(root, 'test', '.tmp');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, 'readme-'));
}

test('the README library example runs exactly as written', async () => {
  const dir = scratchDir();
  writeFileSync(join(dir, 'example.mjs'), block('js', 'example.mjs'));
  const { stdout } = await run(process.execPath, ['example.mjs'], { cwd: dir });
  expect(stdout).toMatch(/@/);
  expect(stdout).toMatch(/has_more: true/);
  expect(stdout).toMatch(/^\d+ deals$/m);
});

test('the README search example runs exactly as written', async () => {
  const dir = scratchDir();
  writeFileSync(join(dir, 'search-example.mjs'), block('js', 'search-example.mjs'));
  const { stdout } = await run(process.execPath, ['search-example.mjs'], { cwd: dir });
  expect(stdout).toMatch(/^contacts: succeeded, \d+ records; companies: succeeded, \d+ records; deals: succeeded, \d+ records$/m);
  expect(stdout).toMatch(/^1001 0\.\d+ ada\.lovelace@example\.com \[ '\d+' \]$/m);
  expect(stdout).toMatch(/^last page \d+(\.\d+)? ms$/m);
});

test('the README command-line example runs exactly as written', async () => {
  const dir = scratchDir();
  // Two npx starts: on a loaded 2-core machine each can take 25 s or more (50 s was not enough in CI).
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', block('bash', 'exec hubspot contacts list')], { cwd: dir, timeout: 100_000 });
  const json = stdout.slice(0, stdout.indexOf('\ncontacts\n') + 1);
  expect(JSON.parse(json).data).toHaveLength(2);
  expect(stdout).toContain('\ncontacts\n  list - ');
}, 120_000);

test('the README hosted walk-through runs exactly as written, with no credentials', async () => {
  const dir = scratchDir();
  const terminal1 = block('bash', 'serve --sandbox');
  const terminal2 = block('bash', 'clients create --name my-app');
  // The port comes from the environment, as the README says, so a second copy of the suite (or
  // anything else on 8080) cannot collide with this one.
  const env = { ...process.env, ENGINE_PORT: String(await freePort()) };
  const server = spawn('bash', ['-c', terminal1], { cwd: dir, detached: true, stdio: 'ignore', env });
  // Also when the test times out: vitest then runs this hook but not the `finally` below (the
  // test's promise is still pending), and the detached server would outlive the suite.
  onTestFinished(() => stopGroup(server.pid));
  try {
    const started = Date.now();
    while (!(existsSync(join(dir, 'serve.log')) && readFileSync(join(dir, 'serve.log'), 'utf8').includes(`listening on http://127.0.0.1:${env.ENGINE_PORT}`))) {
      if (Date.now() - started > 30_000)
        throw new Error('the server did not start: ' + (existsSync(join(dir, 'serve.log')) ? readFileSync(join(dir, 'serve.log'), 'utf8') : 'no log'));
      await new Promise((r) => setTimeout(r, 200));
    }
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', terminal2], { cwd: dir, timeout: 60_000, env });
    const [list, get, search] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(search.hits).toHaveLength(2);
    // The smallest amounts of 50,000 or more among the fake's deals (live and archived, as the copy holds them), compared as numbers.
    const amounts = [...(await fakeDeals()).values()]
      .map((deal) => Number((deal.properties as Record<string, unknown>).amount))
      .filter((amount) => amount >= 50000);
    expect(search.hits.map((hit: { data: { properties: { amount: string } } }) => Number(hit.data.properties.amount))).toEqual(
      amounts.sort((a, b) => a - b).slice(0, 2),
    );
    expect(list.data).toHaveLength(2);
    expect(list.meta.has_more).toBe(true);
    expect(get.data.id).toBe('1001');
    expect(JSON.parse(readFileSync(join(dir, 'client.json'), 'utf8'))).toEqual({
      client_id: expect.stringMatching(/^cli_/),
      client_secret: expect.any(String),
    });
    // The hosted client's example, in the same folder, reads the same page.
    writeFileSync(join(dir, 'hosted-example.mjs'), block('js', 'hosted-example.mjs'));
    const hosted = await run(process.execPath, ['hosted-example.mjs'], { cwd: dir, env });
    expect(hosted.stdout).toBe(`${inspect(list.data.map((contact: { properties: { email: string } }) => contact.properties.email))} true\n`);
  } finally {
    stopGroup(server.pid);
  }
}, 120_000);

/** Stops a detached process group (`serve` started by npx under bash); nothing if it has exited. */
function stopGroup(pid: number | undefined): void {
  try {
    process.kill(-pid!, 'SIGTERM');
  } catch {
    // The server group has already exited (e.g. it failed to start, or the other hook stopped it): nothing to stop.
  }
}

test("the README's table of allowed hosts is what the manifests say", async () => {
  const { shippedManifests } = await import('../../engine/manifest/index.js');
  const rows = [...readme.matchAll(/^\| `([a-z-]+)` \|([^|]*)\|([^|]*)\|([^|]*)\|$/gm)].filter((m) => shippedManifests().has(m[1] as string));
  const listed = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
  const table = Object.fromEntries(
    rows
      .filter((m) => /\.(com|io)`/.test(m[2] as string))
      .map((m) => {
        const other = (m[4] as string).trim();
        return [
          m[1],
          {
            api: listed(m[2] as string),
            token: listed(m[3] as string),
            account: other.startsWith('account') ? listed(other) : [],
            files: other.startsWith('files') ? listed(other) : [],
          },
        ];
      }),
  );
  const manifests = Object.fromEntries(
    [...shippedManifests()].map(([type, loaded]) => {
      const hosts = loaded.manifest.hosts;
      return [type, { api: hosts.api, token: hosts.token ?? [], account: hosts.account ?? [], files: hosts.files ?? [] }];
    }),
  );
  expect(table).toEqual(manifests);
});
