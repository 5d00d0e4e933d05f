import type { UpstreamInfo } from './upstream-info.js';

/** What every fake offers the sandbox. */
export interface RunningFake {
  describe(): UpstreamInfo;
  close(): Promise<void>;
}

/** Options every fake accepts. */
export interface FakeStartOptions {
  port: number;
  host: string;
  records: number;
  seed: number;
  rateLimits: boolean;
  /** The fake's time in epoch ms (tokens, paging tokens, signed URLs, rate-limit windows); default real time. */
  now?: () => number;
}
