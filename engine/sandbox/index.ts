/**
 * The sandbox of fake upstream APIs (DESIGN.md §8): the folder's only door.
 */
import { FAKE_STARTERS, type RunningFake, type SandboxFakes } from './fake-registry.js';
import type { UpstreamInfo } from './upstream-info.js';

export type { UpstreamInfo } from './upstream-info.js';
export type { FakeStartOptions, RunningFake, SandboxFakes } from './fake-registry.js';
export type { FakeRequest, RecordedRequest, RecordedResponse, FaultKind } from './fake-server.js';
export type { Faults, FaultScope, RateLimitFaultOptions, RetryAfterStyle } from './faults.js';
export type { ParamMap } from './param-map.js';
export { startHubspotFake, CAR_FULLY_QUALIFIED_NAME, CAR_OBJECT_TYPE_ID, PORTAL_ID } from './hubspot/index.js';
export type {
  CrmRecord,
  DatasetCounts,
  HistoryEntry,
  HubspotData,
  HubspotFake,
  HubspotFakeOptions,
  HubspotProperties,
  HubspotStats,
  PropertyDef,
  PropertyType,
  TypeCounts,
} from './hubspot/index.js';
export {
  startAsanaFake,
  blobSha256,
  expectedBlobBytes,
  ANCHOR_ATTACHMENT_SIZE,
  LARGE_ATTACHMENT_SIZE,
  DEFAULT_TOO_LARGE_THRESHOLD,
  DEFAULT_OFFSET_TTL_MS,
  DOWNLOAD_URL_TTL_SECONDS,
} from './asana/index.js';
export { startAmazonAdsFake } from './amazon-ads/index.js';
export { startGongFake } from './gong/index.js';
export { startShopifyFake } from './shopify/index.js';
export type { ShopifyFake } from './shopify/index.js';
export type { GongFake } from './gong/index.js';
export type { AmazonAdsData, AmazonAdsFake, AdsProfile, CampaignRecord, PortfolioRecord } from './amazon-ads/index.js';
export type { AsanaAnchors, AsanaAttachment, AsanaDataset, AsanaFake, AsanaFakeOptions, AsanaStats, AsanaTask, BlobRequest, FakeClock } from './asana/index.js';

/** Options of {@link startSandbox} (the CLI's `--port`, `--records`, `--seed`, `--no-rate-limits`). */
export interface SandboxOptions {
  /** First fake's port; the next fakes get port+1, port+2, ... 0 or absent: free ports. */
  port?: number;
  /** Size of the largest collection of each fake (default: each fake's own default). */
  records?: number;
  /** Seed of the generated data and credentials (default 42). */
  seed?: number;
  /** Upstream rate limits (default true; false for benchmarks). */
  rateLimits?: boolean;
  /** Listen address (default 127.0.0.1). */
  host?: string;
  /**
   * The fakes' time in epoch ms (default real time). A fixed time makes answers that carry one
   * (Asana offsets, Gong media URLs) the same on every run; it also stops rate-limit windows, so
   * pair it with `rateLimits: false`.
   */
  now?: () => number;
}

/** The running sandbox. */
export interface Sandbox {
  /** Connection details per connector type. */
  upstreams: Record<string, UpstreamInfo>;
  /** The fakes themselves, with their test hooks. */
  fakes: SandboxFakes;
  /** The JSON object the CLI prints as its first stdout line. */
  describe(): Record<string, UpstreamInfo>;
  close(): Promise<void>;
}

const DEFAULT_RECORDS = 1200;

/**
 * Starts every fake upstream on its own loopback port.
 * Why: the CLI (`connector-engine sandbox`), `serve --sandbox`, the test suites and the benchmarks
 * all need the same set of credential-checking fakes with deterministic data.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const basePort = options.port ?? 0;
  if (!Number.isInteger(basePort) || basePort < 0 || basePort + FAKE_STARTERS.length - 1 > 65535) {
    throw new RangeError(`port must be an integer from 0 to ${65536 - FAKE_STARTERS.length}, got ${options.port}`);
  }
  const common = {
    host: options.host ?? '127.0.0.1',
    records: options.records ?? DEFAULT_RECORDS,
    seed: options.seed ?? 42,
    rateLimits: options.rateLimits ?? true,
    ...(options.now ? { now: options.now } : {}),
  };
  const started: Array<[string, RunningFake]> = [];
  const fakes: Partial<Record<string, RunningFake>> = {};
  try {
    for (const [index, starter] of FAKE_STARTERS.entries()) {
      const fake = await starter.start({ ...common, port: basePort === 0 ? 0 : basePort + index });
      started.push([starter.type, fake]);
      fakes[starter.type] = fake;
    }
  } catch (error) {
    await Promise.all(started.map(([, fake]) => fake.close()));
    throw error;
  }
  const describe = (): Record<string, UpstreamInfo> => Object.fromEntries(started.map(([type, fake]) => [type, fake.describe()]));
  return {
    upstreams: describe(),
    fakes: fakes as unknown as SandboxFakes,
    describe,
    close: async () => {
      await Promise.all(started.map(([, fake]) => fake.close()));
    },
  };
}
