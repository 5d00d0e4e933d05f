/**
 * The Asana fake upstream: routes, credentials, limits, seeded data and the file host
 * (API-NOTES B1-B8).
 */
import { FakeServer, type FakeRequest, type RecordedRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import type { Faults } from '../faults.js';
import type { UpstreamInfo } from '../upstream-info.js';
import { blobSha256 } from './blob-bytes.js';
import { BlobServer, type BlobFile, type BlobRequest } from './blob-server.js';
import { BlobUrlSigner } from './blob-url.js';
import { guarded, type AsanaContext } from './context.js';
import { asanaCredentials, type AsanaCredentials } from './credentials.js';
import type { AsanaAnchors, AsanaDataset } from './dataset.js';
import { noMatchingRoute, rateLimited, statusError } from './errors.js';
import { createFakeClock, type FakeClock } from '../fake-clock.js';
import type { RecordContext } from './full-records.js';
import type { AsanaUser } from './model.js';
import { routeAuthorize } from './authorize.js';
import { oauthToken } from './oauth-token.js';
import { DEFAULT_OFFSET_TTL_MS, OffsetCodec } from './offset-token.js';
import { API_PREFIX } from './paging.js';
import { listAttachments, listTags, listWorkspaceTags } from './tag-attachment-lists.js';
import { listUsers, listUserTeams, listTeamUsers, listWorkspaces, listWorkspaceTeams, listWorkspaceUsers } from './people-lists.js';
import { listProjects, listProjectSections, listTeamProjects, listWorkspaceProjects } from './project-lists.js';
import { AsanaRateLimits } from './rate-limits.js';
import { seedAsanaData } from './seed-data.js';
import { readSingle } from './single-reads.js';
import { listProjectTasks, listSectionTasks, listSubtasks, listTaskLinks, listTaskProjects, listTasks } from './task-lists.js';
import { searchTasks } from './task-search.js';

/** B2/B8: unpaginated lists longer than this answer "The result is too large". */
export const DEFAULT_TOO_LARGE_THRESHOLD = 500;

/** Options of {@link startAsanaFake}. */
export interface AsanaFakeOptions {
  port?: number;
  host?: string;
  /** Top-level tasks of the premium organization (half in the big project); default 1200. */
  records?: number;
  /** PRNG seed of data and credentials; default 42. */
  seed?: number;
  /** Per-token rate limits and the concurrency cap; default true. */
  rateLimits?: boolean;
  /** Longest list served without `limit` (default 500). */
  tooLargeThreshold?: number;
  /** Lifetime of pagination offsets in ms of the fake clock (default 5 minutes). */
  offsetTtlMs?: number;
  /** Port of the file host (default 0: a free port, so `--port N` ports of other fakes stay predictable). */
  blobPort?: number;
  /** The fake's time in epoch ms (tokens, paging tokens, signed URLs, rate-limit windows); default real time. */
  now?: () => number;
}

/** Request counters of the fake. */
export interface AsanaStats {
  /** Requests that reached `POST /-/oauth_token`. */
  readonly tokenRequests: number;
  /** Requests that reached an API route (any outcome, faults included). */
  readonly apiRequests: number;
}

/** A running Asana fake and its test hooks. */
export interface AsanaFake {
  readonly type: 'asana';
  /** The API base, `http://127.0.0.1:PORT/api/1.0` (what `describe().base_url` says). */
  readonly baseUrl: string;
  /** `http://127.0.0.1:PORT`: the OAuth token endpoint lives at its root. */
  readonly origin: string;
  /** `POST` here to refresh: `http://127.0.0.1:PORT/-/oauth_token`. */
  readonly tokenUrl: string;
  /** Origin of the file host that `download_url`s point at (a different port). */
  readonly blobBaseUrl: string;
  /** Every API and token exchange, oldest first. */
  readonly requests: RecordedRequest[];
  /** Every file-host exchange, oldest first. */
  readonly blobRequests: BlobRequest[];
  /**
   * Answers the next `count` file requests with S3's "Request has expired", as if the two-minute
   * URL had run out between the record read and the download (tests of the re-read).
   */
  expireNextDownloadUrls(count: number): void;
  /** Empties both request logs. */
  clearRequests(): void;
  readonly faults: Faults;
  /** The fake's clock: token expiry, offset expiry, download-URL expiry and rate-limit windows. */
  readonly clock: FakeClock;
  readonly personalAccessToken: string;
  readonly oauthClientId: string;
  readonly oauthClientSecret: string;
  readonly refreshToken: string;
  /** Issues an OAuth access token the fake accepts for `ttlSeconds` (default 3600) of its clock. */
  issueAccessToken(ttlSeconds?: number): string;
  /** Expires every OAuth access token issued so far. */
  expireAllAccessTokens(): void;
  /** Makes the refresh token invalid (`invalid_grant` from then on). */
  revokeRefreshToken(): void;
  /** Registers a redirect URI with the OAuth app; the consent page sends codes to registered URIs only. */
  allowRedirectUri(uri: string): void;
  readonly stats: AsanaStats;
  resetStats(): void;
  /** Per-token request limit (default 150 per 60,000 ms). No effect with rate limits off. */
  setRateLimit(max: number, windowMs: number): void;
  /** Per-token task-search limit (default 60 per 60,000 ms). */
  setSearchRateLimit(max: number, windowMs: number): void;
  /** Per-token cap on GETs in flight (default 50). */
  setConcurrencyLimit(max: number): void;
  /** Back to the default limits, with empty windows. */
  resetRateLimits(): void;
  /** GETs of `token` in flight now. */
  readsInFlight(token: string): number;
  /** The seeded objects (read them; do not change them). */
  readonly dataset: AsanaDataset;
  /** Gids of the objects tests refer to by role (premium workspace, big project, anchor attachments...). */
  readonly anchors: AsanaAnchors;
  /** SHA-256 (hex) of the whole content of a file-hosted attachment. */
  blobSha256(attachmentGid: string): string;
  describe(): UpstreamInfo;
  close(): Promise<void>;
}

/**
 * Starts the Asana fake (API on one loopback port, file host on another).
 * Why: the sandbox, the test suites and the benchmarks need a faithful, credential-checking Asana
 * without network access (DESIGN.md §8).
 */
export async function startAsanaFake(options: AsanaFakeOptions = {}): Promise<AsanaFake> {
  const seed = options.seed ?? 42;
  const data = seedAsanaData(options.records ?? 1200, seed);
  const meGid = data.anchors.meGid;
  const clock = createFakeClock(options.now);
  const credentials = asanaCredentials(seed, meGid, () => clock.now());
  const limits = new AsanaRateLimits(options.rateLimits ?? true, clock);
  const offsets = new OffsetCodec(seed, clock, options.offsetTtlMs ?? DEFAULT_OFFSET_TTL_MS);
  const signer = new BlobUrlSigner(seed, clock);
  const blobs = new BlobServer((gid) => blobOf(data, gid), signer, clock);
  const host = options.host ?? '127.0.0.1';
  const blobBaseUrl = await blobs.listen(options.blobPort ?? 0, host);
  const records: RecordContext = {
    data,
    meGid,
    signedDownloadUrl: (attachment) => signer.sign(blobBaseUrl, attachment.gid, attachment.name),
  };
  const threshold = options.tooLargeThreshold ?? DEFAULT_TOO_LARGE_THRESHOLD;
  if (!Number.isInteger(threshold) || threshold < 1) throw new RangeError(`tooLargeThreshold must be a positive integer, got ${threshold}`);
  const ctx: AsanaContext = { data, credentials, limits, clock, offsets, records, tooLargeThreshold: threshold };
  const server = apiServer(ctx, data.user(meGid)!);
  let origin: string;
  try {
    origin = await server.listen(options.port ?? 0, host);
  } catch (error) {
    await blobs.close();
    throw error;
  }
  const startupAccessToken = credentials.grant.accessTokens.issue();
  return fakeHandle({ ctx, server, blobs, origin, blobBaseUrl, startupAccessToken });
}

/** The file-host view of an attachment; undefined unless the file host serves it. */
function blobOf(data: AsanaDataset, gid: string): BlobFile | undefined {
  const attachment = data.attachment(gid);
  if (!attachment || attachment.download !== 'blob') return undefined;
  return { gid, name: attachment.name, size: attachment.sizeBytes, contentType: attachment.contentType, createdAt: attachment.createdAt };
}

/** The API server: Asana's error bodies, the rate limits, the token endpoint and every read route. */
function apiServer(ctx: AsanaContext, me: AsanaUser): FakeServer {
  const server = new FakeServer('asana', {
    serverError: (_req, status) => statusError(status),
    rateLimited: (_req, retryAfter) => rateLimited(retryAfter),
    notFound: () => noMatchingRoute(),
    methodNotAllowed: () => noMatchingRoute(),
    admit: (req, kind) => ctx.limits.enter(req, kind),
  });
  server.route('POST', '/-/oauth_token', oauthToken(ctx.credentials.grant, me), 'auth');
  routeAuthorize(server, ctx.credentials.grant);
  const get = (path: string, handler: (ctx: AsanaContext, req: FakeRequest) => FakeResponse, search = false): void => {
    server.route(
      'GET',
      `${API_PREFIX}${path}`,
      guarded(ctx, (req) => handler(ctx, req), { search }),
    );
  };
  listRoutes(get);
  singleRoutes(get);
  return server;
}

/** Registers a GET route under the API prefix; `search` routes count against the search limit. */
type RouteGet = (path: string, handler: (ctx: AsanaContext, req: FakeRequest) => FakeResponse, search?: boolean) => void;

/** The list and search routes. */
function listRoutes(get: RouteGet): void {
  get('/tasks', listTasks);
  get('/projects/:project_gid/tasks', listProjectTasks);
  get('/sections/:section_gid/tasks', listSectionTasks);
  get('/workspaces/:workspace_gid/tasks/search', searchTasks, true);
  get('/tasks/:task_gid/projects', listTaskProjects);
  get('/tasks/:task_gid/subtasks', listSubtasks);
  get('/tasks/:task_gid/dependencies', (c, req) => listTaskLinks(c, req, 'dependencies'));
  get('/tasks/:task_gid/dependents', (c, req) => listTaskLinks(c, req, 'dependents'));
  get('/projects', listProjects);
  get('/workspaces/:workspace_gid/projects', listWorkspaceProjects);
  get('/teams/:team_gid/projects', listTeamProjects);
  get('/workspaces', listWorkspaces);
  get('/users', listUsers);
  get('/workspaces/:workspace_gid/users', listWorkspaceUsers);
  get('/teams/:team_gid/users', listTeamUsers);
  get('/workspaces/:workspace_gid/teams', listWorkspaceTeams);
  get('/users/:user_gid/teams', listUserTeams);
  get('/attachments', listAttachments);
  get('/workspaces/:workspace_gid/tags', listWorkspaceTags);
  get('/tags', listTags);
  get('/projects/:project_gid/sections', listProjectSections);
}

/** The single-object routes (registered after the lists, as before). */
function singleRoutes(get: RouteGet): void {
  get('/tasks/:task_gid', (c, req) => readSingle(c, req, 'task', 'task_gid'));
  get('/projects/:project_gid', (c, req) => readSingle(c, req, 'project', 'project_gid'));
  get('/workspaces/:workspace_gid', (c, req) => readSingle(c, req, 'workspace', 'workspace_gid'));
  get('/users/:user_gid', (c, req) => readSingle(c, req, 'user', 'user_gid'));
  get('/teams/:team_gid', (c, req) => readSingle(c, req, 'team', 'team_gid'));
  get('/tags/:tag_gid', (c, req) => readSingle(c, req, 'tag', 'tag_gid'));
  get('/sections/:section_gid', (c, req) => readSingle(c, req, 'section', 'section_gid'));
  get('/attachments/:attachment_gid', (c, req) => readSingle(c, req, 'attachment', 'attachment_gid'));
}

/** The running parts a fake handle exposes. */
interface RunningParts {
  ctx: AsanaContext;
  server: FakeServer;
  blobs: BlobServer;
  origin: string;
  blobBaseUrl: string;
  startupAccessToken: string;
}

/** The test hooks over the running servers, tokens and limits. */
function fakeHandle(parts: RunningParts): AsanaFake {
  const { ctx, server, blobs, origin, blobBaseUrl } = parts;
  const { data, credentials, limits } = ctx;
  const { grant } = credentials;
  const baseUrl = `${origin}${API_PREFIX}`;
  return {
    type: 'asana',
    baseUrl,
    origin,
    tokenUrl: `${origin}/-/oauth_token`,
    blobBaseUrl,
    requests: server.requests,
    blobRequests: blobs.requests,
    expireNextDownloadUrls: (count: number) => {
      blobs.expireNext = count;
    },
    clearRequests: () => {
      server.clearRequests();
      blobs.requests.length = 0;
    },
    faults: server.faults,
    clock: ctx.clock,
    personalAccessToken: credentials.personalAccessToken,
    oauthClientId: grant.clientId,
    oauthClientSecret: grant.clientSecret,
    refreshToken: grant.refreshTokens.current,
    issueAccessToken: (ttlSeconds) => grant.accessTokens.issue(ttlSeconds),
    expireAllAccessTokens: () => grant.accessTokens.expireAll(),
    revokeRefreshToken: () => grant.refreshTokens.revoke(),
    allowRedirectUri: (uri) => void grant.redirectUris.add(uri),
    stats: server.stats,
    resetStats: () => server.resetStats(),
    setRateLimit: (max, windowMs) => limits.setRateLimit(max, windowMs),
    setSearchRateLimit: (max, windowMs) => limits.setSearchRateLimit(max, windowMs),
    setConcurrencyLimit: (max) => limits.setConcurrencyLimit(max),
    resetRateLimits: () => limits.restoreDefaults(),
    readsInFlight: (token) => limits.readsInFlight(token),
    dataset: data,
    anchors: data.anchors,
    blobSha256: (attachmentGid) => servedBlobSha256(data, attachmentGid),
    describe: () => describeAsana(credentials, baseUrl, blobBaseUrl, parts.startupAccessToken),
    close: async () => {
      await Promise.all([server.close(), blobs.close()]);
    },
  };
}

/** SHA-256 of a file-hosted attachment's content; throws for any other attachment. */
function servedBlobSha256(data: AsanaDataset, attachmentGid: string): string {
  const attachment = data.attachment(attachmentGid);
  if (!attachment || attachment.download !== 'blob') throw new Error(`attachment ${attachmentGid} is not served by the file host`);
  return blobSha256(attachment.gid, attachment.sizeBytes);
}

/** The connection details the sandbox prints: a personal access token, or OAuth with a startup token. */
function describeAsana(credentials: AsanaCredentials, baseUrl: string, blobBaseUrl: string, startupAccessToken: string): UpstreamInfo {
  const { personalAccessToken, grant } = credentials;
  const pat = { token: personalAccessToken };
  return {
    base_url: baseUrl,
    credentials: { ...pat },
    credentials_by_scheme: {
      personal_access_token: pat,
      oauth: {
        client_id: grant.clientId,
        client_secret: grant.clientSecret,
        refresh_token: grant.refreshTokens.current,
        access_token: startupAccessToken,
      },
    },
    config: {},
    // The file host is a second origin, like S3 (API-NOTES B5).
    allow_origins: [new URL(blobBaseUrl).origin],
  };
}
