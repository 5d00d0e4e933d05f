/**
 * What kind of upstream request: an API call, a token refresh (the OAuth token endpoint), or a
 * file transfer (a download's file URL and each of its redirects).
 */
export type UpstreamRequestKind = 'api' | 'token' | 'file';

/** One HTTP request the engine sends upstream; every attempt counts, so a retry is one too. */
export interface UpstreamRequest {
  kind: UpstreamRequestKind;
  /** True when got sends the request again after a failure (429, 5xx, timeout, reset). */
  retry: boolean;
}

/**
 * Told of every upstream request as it is sent, by the code that sends it. Why at the source:
 * the hosted service's metrics once took deltas of a shared connection's counters around each
 * execute, and concurrent executes on one connection then counted each other's requests
 * (235,281 reported for 5,571 sent); sync passes were not counted at all.
 */
export type UpstreamRequestListener = (request: UpstreamRequest) => void;
