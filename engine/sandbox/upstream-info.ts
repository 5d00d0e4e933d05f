/**
 * What the sandbox tells users about one fake upstream (DESIGN.md §8, the JSON the CLI prints).
 */

/** How to point one connector type at its fake. */
export interface UpstreamInfo {
  /** Replaces the manifest's base URL (and the OAuth token URL's origin). */
  base_url: string;
  /** A working credential set (the first scheme of `credentials_by_scheme`). */
  credentials: Record<string, string>;
  /** One working credential set per auth scheme, keyed by the manifest's auth scheme name. */
  credentials_by_scheme: Record<string, Record<string, string>>;
  /** Connector config values for this fake. */
  config: Record<string, unknown>;
  /**
   * The fake's other origins (the Asana file host, the Gong customer host): requests go only where
   * the manifest or the operator says, so pass these as `allowOrigins` together with `base_url`.
   */
  allow_origins: string[];
}
