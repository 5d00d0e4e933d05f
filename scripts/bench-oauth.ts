/**
 * The cost of finishing an OAuth authorization through the engine against a hand-written exchange
 * of the same code (one form POST with fetch), measured side by side on the sandbox fakes
 * (HubSpot: no PKCE; Asana: PKCE), interleaved in rounds so that the shared machine's noise falls
 * on both. Codes come from the fakes' consent pages before each timed exchange and are not timed.
 * Run alone: `node dist/scripts/bench-oauth.js`.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { finishAuthorization, startAuthorization } from '../engine/index.js';
import { startSandbox, type Sandbox } from '../engine/sandbox/index.js';
import { decideOnConsentPage, startCallbackReceiver, type CallbackReceiver } from '../test/support/oauth-consent.js';

const ROUNDS = 5;
const PER_ROUND = 40;
const TYPES = [
  { type: 'hubspot', tokenPath: '/oauth/v1/token' },
  { type: 'asana', tokenPath: '/-/oauth_token' },
] as const;

type Flow = (typeof TYPES)[number];

/** One approved authorization, ready to be exchanged. */
interface Approved {
  state: string;
  codeVerifier?: string;
  callback: string;
}

function app(sandbox: Sandbox, type: string): { client_id: string; client_secret: string } {
  const oauth = sandbox.upstreams[type]!.credentials_by_scheme.oauth!;
  return { client_id: oauth.client_id!, client_secret: oauth.client_secret! };
}

async function approve(sandbox: Sandbox, receiver: CallbackReceiver, type: string): Promise<Approved> {
  const start = startAuthorization(type, { credentials: app(sandbox, type), redirectUri: receiver.url, baseUrl: sandbox.upstreams[type]!.base_url });
  await decideOnConsentPage(start.url, 'approve');
  return { state: start.state, callback: receiver.received.pop()!, ...(start.codeVerifier ? { codeVerifier: start.codeVerifier } : {}) };
}

/** The engine's exchange of one approved code; resolves with its duration in ms. */
async function engineExchange(sandbox: Sandbox, receiver: CallbackReceiver, flow: Flow, approved: Approved): Promise<number> {
  const begin = performance.now();
  await finishAuthorization(flow.type, {
    credentials: app(sandbox, flow.type),
    callback: approved.callback,
    state: approved.state,
    redirectUri: receiver.url,
    baseUrl: sandbox.upstreams[flow.type]!.base_url,
    ...(approved.codeVerifier ? { codeVerifier: approved.codeVerifier } : {}),
  });
  return performance.now() - begin;
}

/** The same exchange written by hand: one form POST, the JSON read. */
async function bareExchange(sandbox: Sandbox, receiver: CallbackReceiver, flow: Flow, approved: Approved): Promise<number> {
  const begin = performance.now();
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    ...app(sandbox, flow.type),
    redirect_uri: receiver.url,
    code: new URL(approved.callback).searchParams.get('code')!,
    ...(approved.codeVerifier ? { code_verifier: approved.codeVerifier } : {}),
  });
  const response = await fetch(sandbox.upstreams[flow.type]!.base_url.replace(/\/api\/1\.0$/, '') + flow.tokenPath, { method: 'POST', body: form });
  const body = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !body.access_token) throw new Error(`bare exchange failed with ${response.status}`);
  return performance.now() - begin;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** One round for one upstream: PER_ROUND exchanges each way, alternating. */
async function round(sandbox: Sandbox, receiver: CallbackReceiver, flow: Flow): Promise<{ engine: number; bare: number }> {
  const engine: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < PER_ROUND; i += 1) {
    engine.push(await engineExchange(sandbox, receiver, flow, await approve(sandbox, receiver, flow.type)));
    bare.push(await bareExchange(sandbox, receiver, flow, await approve(sandbox, receiver, flow.type)));
  }
  return { engine: median(engine), bare: median(bare) };
}

/** Runs the rounds and prints, per upstream, the median exchange time each way and their ratio, with the range over rounds. */
export async function benchOauth(): Promise<void> {
  const sandbox = await startSandbox({ rateLimits: false, records: 5 });
  const receiver = await startCallbackReceiver();
  try {
    for (const { type } of TYPES) (sandbox.fakes[type] as { allowRedirectUri(uri: string): void }).allowRedirectUri(receiver.url);
    const ratios: Record<string, number[]> = {};
    const medians: Record<string, { engine: number[]; bare: number[] }> = {};
    for (let r = 0; r < ROUNDS; r += 1) {
      for (const flow of TYPES) {
        const { engine, bare } = await round(sandbox, receiver, flow);
        (ratios[flow.type] ??= []).push(engine / bare);
        const m = (medians[flow.type] ??= { engine: [], bare: [] });
        m.engine.push(engine);
        m.bare.push(bare);
      }
    }
    console.log(`oauth code exchange: ${ROUNDS} rounds x ${PER_ROUND} exchanges each way, interleaved (ms, median of round medians [min-max])`);
    for (const { type } of TYPES) {
      const m = medians[type]!;
      const range = (v: number[]) => `${median(v).toFixed(2)} [${Math.min(...v).toFixed(2)}-${Math.max(...v).toFixed(2)}]`;
      console.log(`${type.padEnd(8)} engine ${range(m.engine)}  hand-written ${range(m.bare)}  ratio ${range(ratios[type]!)}`);
    }
  } finally {
    await receiver.close();
    await sandbox.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchOauth().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
