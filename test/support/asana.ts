import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { connect, type Connection } from '../../engine/index.js';

/** A running sandbox plus shortcuts to its Asana fake, for tests. */
export interface AsanaHarness {
  sandbox: Sandbox;
  baseUrl: string;
  token: string;
  oauth: Record<string, string>;
  /** A raw authenticated GET on the fake (path relative to /api/1.0). */
  raw(path: string): Promise<{ status: number; body: any }>;
  /** A connection with the personal access token and no client-side rate limit; untyped, as tests name entities and params at run time. */
  asana(): Connection;
  close(): Promise<void>;
}

/** Starts a sandbox for one test file. */
export async function startAsana(options: { rateLimits?: boolean } = {}): Promise<AsanaHarness> {
  const sandbox = await startSandbox({ rateLimits: options.rateLimits ?? false });
  const info = sandbox.upstreams.asana!;
  const token = String(info.credentials_by_scheme.personal_access_token!.token);
  return {
    sandbox,
    baseUrl: info.base_url,
    token,
    oauth: info.credentials_by_scheme.oauth as Record<string, string>,
    async raw(path) {
      const response = await fetch(info.base_url + path, { headers: { authorization: `Bearer ${token}` } });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    // The fake's file host is a second origin (allow_origins): downloads may go there.
    asana: () => connect<string>('asana', { credentials: { token }, baseUrl: info.base_url, allowOrigins: info.allow_origins, rateLimit: false }),
    close: () => sandbox.close(),
  };
}

/** Every property a full Asana project read carries (the spec's ProjectResponse), for tests of the fake and of the connector alike. */
export const ASANA_PROJECT_FIELDS: readonly string[] = [
  'archived',
  'color',
  'completed',
  'completed_at',
  'created_at',
  'current_status',
  'current_status_update',
  'custom_fields',
  'default_access_level',
  'default_view',
  'due_on',
  'due_date',
  'followers',
  'members',
  'minimum_access_level_for_customization',
  'minimum_access_level_for_sharing',
  'modified_at',
  'name',
  'notes',
  'owner',
  'permalink_url',
  'privacy_setting',
  'public',
  'resource_type',
  'start_on',
  'team',
  'workspace',
];
