/**
 * The Connect page (issue 16) in a real browser: headless Chromium (Debian's, through
 * playwright-core) against `connector-engine serve --sandbox`. A platform creates a session with
 * the HTTP API, the end user opens its URL, picks a type and approves on the fake's consent page
 * (or denies, or types in a token scheme), and the connector then exists for that user. The
 * expired session runs on an in-process service with a manual clock, so no test waits for time.
 * Screenshots of the main flow are saved under test-results/connect/. A webhook receiver on
 * loopback, registered for the platform client, gets the approved connector's events, signed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createManualClock } from '../../engine/clock/index.js';
import { verifyWebhookSignature } from '../../engine/index.js';
import { startHostedService } from '../../engine/hosted/index.js';
import { hashSecret } from '../../engine/store/index.js';
import { CLI, runCli } from '../support/cli.js';
import { call } from '../support/http-call.js';

const SCREENSHOTS = join(process.cwd(), 'test-results', 'connect');

let browser: Browser;
let server: ChildProcess;
let base: string;
let sandbox: Record<string, { credentials: Record<string, string> }>;
let client: { client_id: string; client_secret: string };
let receiver: Server;
let signingSecret: string;
/** What the webhook receiver got, in order: headers and the raw body. */
const deliveries: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

/** A webhook receiver on loopback that answers 204 to everything and keeps what it got. */
async function startReceiver(): Promise<string> {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk));
    request.on('end', () => {
      deliveries.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
}

/** `serve --sandbox` as its own process: resolves with the sandbox's JSON line and the service URL. */
function serveSandbox(databaseUrl: string, receiverOrigin: string): Promise<{ sandbox: typeof sandbox; url: string }> {
  return new Promise((resolve, reject) => {
    server = spawn(process.execPath, [CLI, 'serve', '--sandbox', '--no-rate-limits', '--port', '0'], {
      env: {
        ...process.env,
        ENGINE_DATABASE_URL: databaseUrl,
        ENGINE_SECRET: 'connect-browser-secret',
        ENGINE_LOG_LEVEL: 'warn',
        // The receiver is a loopback http origin: the operator allows it, as for any private receiver.
        ENGINE_ALLOW_ORIGINS_WEBHOOKS: receiverOrigin,
        ENGINE_WEBHOOK_POLL_SECONDS: '0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let first: typeof sandbox | undefined;
    server.stderr!.on('data', (d) => (stderr += d));
    createInterface({ input: server.stdout! }).on('line', (line) => {
      first ??= JSON.parse(line) as typeof sandbox;
      const match = /connector-engine listening on (http:\/\/\S+?)"/.exec(line);
      if (match) resolve({ sandbox: first, url: match[1]! });
    });
    server.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'connect-browser-'));
  const databaseUrl = `sqlite:${join(dir, 'engine.db')}`;
  const created = await runCli(['clients', 'create', '--name', 'connect-app', '--database-url', databaseUrl]);
  client = JSON.parse(created.stdout) as typeof client;
  const receiverOrigin = await startReceiver();
  const endpoint = await runCli(
    ['webhooks', 'add', '--client', client.client_id, '--url', `${receiverOrigin}/hooks`, '--database-url', databaseUrl],
    undefined,
    {
      ENGINE_SECRET: 'connect-browser-secret',
    },
  );
  expect(endpoint.code, endpoint.stderr).toBe(0);
  signingSecret = (JSON.parse(endpoint.stdout) as { secret: string }).secret;
  const [started, launched] = await Promise.all([
    serveSandbox(databaseUrl, receiverOrigin),
    chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] }),
  ]);
  ({ sandbox, url: base } = started);
  browser = launched;
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  receiver?.close();
});

/** The events the receiver got for one connector, each checked against its signature first. */
function signedEvents(connectorId: string): Array<{ type: string; data: Record<string, unknown> }> {
  return deliveries
    .map(({ headers, body }) => {
      expect(verifyWebhookSignature(signingSecret, headers, body), `signature of ${body.slice(0, 80)}`).toBe(true);
      return JSON.parse(body) as { type: string; data: Record<string, unknown> };
    })
    .filter((event) => event.data.connector_id === connectorId);
}

async function tokenFor(user: string, url = base, app = client): Promise<string> {
  return (await call(url, 'POST', '/v1/auth/token', { body: { ...app, external_user_id: user } })).body.access_token as string;
}

async function session(token: string, body: Record<string, unknown>, url = base): Promise<{ url: string; expires_at: string }> {
  const answer = await call(url, 'POST', '/v1/connect/sessions', { token, body });
  expect(answer.status).toBe(201);
  return answer.body as { url: string; expires_at: string };
}

async function connectors(token: string): Promise<Array<{ id: string; connector_type: string; auth_scheme: string }>> {
  return (await call(base, 'GET', '/v1/integrations/connectors', { token })).body.data;
}

/** From the session URL to the fake's consent page: choose HubSpot, then continue to it. */
async function toHubspotConsent(page: Page, url: string, shots = false): Promise<void> {
  await page.goto(url);
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Connect an account');
  if (shots) await page.screenshot({ path: join(SCREENSHOTS, 'start.png'), fullPage: true });
  await page.getByRole('link', { name: 'HubSpot CRM' }).click();
  await page.getByRole('button', { name: 'Continue to HubSpot CRM' }).click();
  await page.getByRole('button', { name: 'Approve' }).waitFor();
  if (shots) await page.screenshot({ path: join(SCREENSHOTS, 'consent.png'), fullPage: true });
}

test('HubSpot: choose, approve on the consent page, come back to success; the connector exists and executes; the same callback again is refused', async () => {
  const token = await tokenFor('user-approve');
  const { url, expires_at } = await session(token, { connector_types: ['hubspot', 'shopify'] });
  expect(url).toMatch(new RegExp(`^${base}/connect/[A-Za-z0-9_-]{43}$`));
  expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(25 * 60_000);
  const page = await browser.newPage();
  await toHubspotConsent(page, url, true);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('HubSpot CRM connected');
  await page.locator('#progress li').first().waitFor();
  await page.screenshot({ path: join(SCREENSHOTS, 'success.png'), fullPage: true });

  const [connector] = await connectors(token);
  expect(connector).toMatchObject({ connector_type: 'hubspot', auth_scheme: 'oauth' });
  expect(await connectors(token)).toHaveLength(1);
  const listed = await call(base, 'POST', `/api/v1/connectors/sources/${connector!.id}/execute`, {
    token,
    body: { entity: 'contacts', action: 'list', params: { limit: 2 } },
  });
  expect(listed.status).toBe(200);
  expect(listed.body.data).toHaveLength(2);

  const callback = page.url();
  expect(callback).toMatch(new RegExp(`^${base}/connect/callback\\?code=`));
  const again = await browser.newPage();
  const answer = await again.goto(callback);
  expect(answer!.status()).toBe(400);
  expect(await again.getByRole('heading', { level: 1 }).textContent()).toBe('Sign-in could not be completed');
  expect(await again.getByRole('alert').textContent()).toContain('this sign-in was already used');
  expect(await connectors(token)).toHaveLength(1);
  await Promise.all([page.close(), again.close()]);

  // The platform hears of it: connector.created, then sync.finished once the first pass is done.
  await expect
    .poll(() => signedEvents(connector!.id).map((event) => event.type), { timeout: 60_000, interval: 100 })
    .toEqual(['connector.created', 'sync.finished']);
  const [created, finished] = signedEvents(connector!.id);
  expect(created!.data).toMatchObject({ client_id: client.client_id, external_user_id: 'user-approve', connector_type: 'hubspot' });
  expect(finished!.data).toMatchObject({ client_id: client.client_id, external_user_id: 'user-approve', connector_id: connector!.id });
  expect(finished!.data.records).toBeGreaterThan(0);
}, 120_000);

test('Deny on the consent page shows the denial and creates no connector', async () => {
  const token = await tokenFor('user-deny');
  const page = await browser.newPage();
  await toHubspotConsent(page, (await session(token, {})).url);
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Access was denied');
  expect(await page.getByRole('alert').textContent()).toBe(
    'You chose Deny on the sign-in page, so no account was connected. You can start again from the app.',
  );
  expect(await page.locator('code').textContent()).toBe('AUTHORIZATION_DENIED');
  expect(await connectors(token)).toEqual([]);
  await page.close();
});

test('Shopify form: a bad shop is shown next to its field, good values connect with a link back to the app', async () => {
  const token = await tokenFor('user-shopify');
  const returnUrl = `${base}/healthz?from=connect`;
  const page = await browser.newPage();
  await page.goto((await session(token, { connector_types: ['shopify'], return_url: returnUrl })).url);
  await page.getByRole('link', { name: 'Shopify' }).click();
  const good = sandbox.shopify!.credentials;
  await page.getByLabel('api key', { exact: true }).fill(good.api_key!);
  await page.getByLabel('shop', { exact: true }).fill('Not A Shop!');
  await page.getByRole('button', { name: 'Connect Shopify' }).click();
  const shop = page.getByLabel('shop', { exact: true });
  await expect.poll(() => shop.getAttribute('aria-invalid')).toBe('true');
  const errorId = (await shop.getAttribute('aria-describedby'))!.split(' ').find((id) => id.endsWith('-error'))!;
  expect(await page.locator(`#${errorId}`).textContent()).toBe('must match pattern "^[a-z0-9][a-z0-9-]{0,62}$"');
  expect(await page.getByLabel('api key', { exact: true }).inputValue()).toBe('');
  expect(await connectors(token)).toEqual([]);

  await page.getByLabel('api key', { exact: true }).fill(good.api_key!);
  await shop.fill(good.shop!);
  // The page returns to the app once the first sync finished; the link it shows until then is read from its HTML.
  const [success] = await Promise.all([page.waitForResponse(/\/shopify\/credentials$/), page.getByRole('button', { name: 'Connect Shopify' }).click()]);
  expect(success.status()).toBe(200);
  const [connector] = await connectors(token);
  expect(connector).toMatchObject({ connector_type: 'shopify', auth_scheme: 'token' });
  expect(await success.text()).toContain(`<a href="${base}/healthz?from=connect&#38;connector_id=${connector!.id}">Return to the app</a>`);
  await page.close();
});

test('an expired session shows a clear error (the service on a manual clock)', async () => {
  const clock = createManualClock(Date.parse('2026-03-01T10:00:00Z'));
  const dir = mkdtempSync(join(tmpdir(), 'connect-expired-'));
  const service = await startHostedService({
    databaseUrl: `sqlite:${join(dir, 'e.db')}`,
    port: 0,
    secret: 'connect-expired-secret',
    logger: false,
    sync: { background: false },
    clock,
  });
  try {
    const secret = 'ces_connect_expired_secret';
    const app = await service.store.createClient({ name: 'expired', secretHash: await hashSecret(secret) });
    const created = await session(await tokenFor('user-late', service.url, { client_id: app.client_id, client_secret: secret }), {}, service.url);
    expect(created.expires_at).toBe('2026-03-01T10:30:00.000Z');
    await clock.advance(30 * 60_000);
    const page = await browser.newPage();
    const answer = await page.goto(created.url);
    expect(answer!.status()).toBe(410);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This connect link can no longer be used');
    expect(await page.getByRole('alert').textContent()).toBe('this connect link has expired; ask the app for a new one');
    await page.close();
  } finally {
    await service.close();
  }
});
