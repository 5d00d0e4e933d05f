import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';

/** A running sandbox plus shortcuts to its HubSpot fake, for tests. */
export interface HubspotHarness {
  sandbox: Sandbox;
  baseUrl: string;
  privateToken: string;
  oauth: Record<string, string>;
  /** A raw authenticated GET/POST on the fake, the hand-written call results are compared with. */
  raw(path: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** Starts a sandbox for one test file. */
export async function startHubspot(options: { rateLimits?: boolean; records?: number } = {}): Promise<HubspotHarness> {
  const sandbox = await startSandbox({ rateLimits: options.rateLimits ?? false, ...(options.records ? { records: options.records } : {}) });
  const info = sandbox.upstreams.hubspot!;
  const privateToken = String(info.credentials_by_scheme.private_app!.access_token);
  return {
    sandbox,
    baseUrl: info.base_url,
    privateToken,
    oauth: info.credentials_by_scheme.oauth as Record<string, string>,
    async raw(path, init = {}) {
      const response = await fetch(info.base_url + path, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${privateToken}`, 'content-type': 'application/json' },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    close: () => sandbox.close(),
  };
}

/** What the engine adds to a HubSpot record: SPEC.md's nullable fields, null when HubSpot omits them. */
export function withCrmDefaults(record: Record<string, unknown>): Record<string, unknown> {
  return { archivedAt: null, propertiesWithHistory: null, associations: null, objectWriteTraceId: null, url: null, ...record };
}
