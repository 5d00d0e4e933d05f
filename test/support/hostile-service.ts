/**
 * A hosted service in this process for the hostile-input suites: SQLite or PostgreSQL, routed to
 * a sandbox, with one platform client, a collector of its log lines, the secrets no answer may
 * hold, and the calls those suites make (token, connectors, sync) over real loopback HTTP.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startHostedService, type HostedService } from '../../engine/hosted/index.js';
import type { Sandbox } from '../../engine/sandbox/index.js';
import { hashSecret } from '../../engine/store/index.js';
import { logLines } from './log-lines.js';
import type { PostgresCluster } from './postgres.js';

export const ENGINE_SECRET = 'hostile-test-engine-secret-0123456789';

export interface HostileService {
  service: HostedService;
  url: string;
  logs: string[];
  client: { client_id: string; client_secret: string };
  /** Every string an answer must never contain: client secret, ENGINE_SECRET, upstream credentials. */
  secrets: string[];
  close(): Promise<void>;
}

/** What a JSON call answered. */
export interface JsonAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
  bytes: number;
  ms: number;
}

/** Starts the service on a fresh SQLite file or a fresh PostgreSQL database of `cluster`. */
export async function startHostileService(
  backend: 'sqlite' | 'postgres',
  sandbox: Sandbox,
  cluster: PostgresCluster | undefined,
  options: { bodyLimit?: number } = {},
): Promise<HostileService> {
  const databaseUrl =
    backend === 'sqlite' ? `sqlite:${join(mkdtempSync(join(tmpdir(), 'hostile-')), 'engine.db')}` : await (cluster as PostgresCluster).createDatabase();
  const { stream, lines: logs } = logLines();
  const upstreams = Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.base_url]));
  // The fakes' second origins (Asana's file host, Gong's customer host), as `serve --sandbox` allows them.
  const allowOrigins = Object.fromEntries(Object.entries(sandbox.upstreams).map(([type, info]) => [type, info.allow_origins]));
  const service = await startHostedService({
    databaseUrl,
    port: 0,
    secret: ENGINE_SECRET,
    upstreams,
    allowOrigins,
    logger: { level: 'info', stream },
    clientRateLimits: false,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    // Passes run only when a test asks (POST .../sync runs one in this process).
    sync: { background: false },
  });
  const secret = 'ces_hostile_secret_value_00001';
  const created = await service.store.createClient({ name: 'hostile tests', secretHash: await hashSecret(secret) });
  const upstreamSecrets = Object.values(sandbox.upstreams).flatMap((info) => Object.values(info.credentials_by_scheme).flatMap((set) => Object.values(set)));
  return {
    service,
    url: service.url,
    logs,
    client: { client_id: created.client_id, client_secret: secret },
    secrets: [secret, ENGINE_SECRET, ...upstreamSecrets].filter((value): value is string => typeof value === 'string' && value.length >= 12),
    close: () => service.close(),
  };
}

/** One JSON call with fetch; `raw` sends a body as is. */
export async function callJson(
  h: HostileService,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<JsonAnswer> {
  const started = performance.now();
  const hasBody = options.body !== undefined || options.raw !== undefined;
  const response = await fetch(h.url + path, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(hasBody ? { body: options.raw ?? JSON.stringify(options.body) } : {}),
  });
  const buffer = Buffer.from(await response.arrayBuffer());
  const text = buffer.toString('utf8');
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, text, body, bytes: buffer.length, ms: performance.now() - started };
}

export async function tokenFor(h: HostileService, user: string): Promise<string> {
  const answer = await callJson(h, 'POST', '/v1/auth/token', { body: { ...h.client, external_user_id: user } });
  expect(answer.status).toBe(200);
  return answer.body.access_token as string;
}

/** Creates a connector of `type` for the token's user with the sandbox's credentials; returns its id. */
export async function createConnector(h: HostileService, sandbox: Sandbox, token: string, user: string, type: string): Promise<string> {
  const info = sandbox.upstreams[type]!;
  const answer = await callJson(h, 'POST', '/v1/integrations/connectors', {
    token,
    body: { external_user_id: user, connector_type: type, credentials: info.credentials, config: info.config },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

/** Runs a full sync pass of the connector now and waits until every entity succeeded. */
export async function syncNow(h: HostileService, token: string, id: string): Promise<void> {
  const path = `/api/v1/connectors/sources/${id}/sync`;
  expect((await callJson(h, 'POST', path, { token, body: { full: true } })).status).toBe(202);
  for (let i = 0; i < 600; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const status = await callJson(h, 'GET', path, { token });
    if (!status.body.running && status.body.entities.length > 0) {
      expect(
        status.body.entities.every((entity: { status: string }) => entity.status === 'succeeded'),
        status.text,
      ).toBe(true);
      return;
    }
  }
  throw new Error(`the sync pass of ${id} did not finish`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The checks every answer passes: an `x-request-id` UUID, and for an error the shape of DESIGN.md
 * §6 with the same `request_id`, a code whose table status is the answer's status.
 */
export function expectAnswerShape(status: number, requestId: string | null | undefined, text: string, codes: Record<string, { status: number }>): void {
  expect(requestId, `x-request-id of a ${status} answer`).toMatch(UUID);
  if (status < 400) return;
  const body = JSON.parse(text) as { error?: Record<string, unknown> };
  expect(Object.keys(body), text).toEqual(['error']);
  const error = body.error as Record<string, unknown>;
  expect(typeof error.code === 'string' && Object.hasOwn(codes, error.code), text).toBe(true);
  expect(codes[error.code as string]?.status, text).toBe(status);
  expect(typeof error.message, text).toBe('string');
  expect(typeof error.retryable, text).toBe('boolean');
  expect(error.request_id, text).toBe(requestId);
}
