/**
 * The Admin API versions the fake serves (API-NOTES B.1).
 */

/**
 * B.1: "As of 2026-11-22 the newest stable version is 2026-10; 2026-07 is the previous one."
 * The first entry is the default of `describe()`.
 */
export const SUPPORTED_API_VERSIONS = ['2026-10', '2026-07'] as const;

/** A version the fake serves. */
export type ApiVersion = (typeof SUPPORTED_API_VERSIONS)[number];

/** The newest stable version: `describe().config.api_version` and its base URL. */
export const LATEST_API_VERSION: ApiVersion = SUPPORTED_API_VERSIONS[0];

/**
 * True for a version the fake serves. Anything else (older, newer, `unstable`, malformed) is a 404
 * `{"errors":"Not Found"}`, a deliberate narrowing: real Shopify also serves older supported versions.
 * Why: a connector configured with a wrong `api_version` must fail loudly in the sandbox.
 */
export function isSupportedVersion(version: string): version is ApiVersion {
  return (SUPPORTED_API_VERSIONS as readonly string[]).includes(version);
}
