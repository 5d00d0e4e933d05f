/**
 * The manifest as data. Its types are generated from schemas/manifest.schema.json (the author's
 * reference, and what ajv checks a manifest against before anything reads it as these types);
 * this file adds only what loading guarantees beyond the schema (its defaults applied) and types
 * that are not manifest keys.
 */
import type { JsonSchema } from './json-values.js';
import type { HostLists, HttpPolicyDocument, ManifestDocument, RetryPolicyDocument, SyncPlanRead } from './manifest-schema.generated.js';

export type * from './manifest-schema.generated.js';
export type { JsonSchema, TemplateTree } from './json-values.js';

/** A retry policy once the schema's defaults are applied: every part set. */
export type RetryPolicy = Required<RetryPolicyDocument>;

/** The HTTP policy once the schema's defaults are applied. */
export type HttpPolicy = Omit<HttpPolicyDocument, 'timeout_ms' | 'retry'> & { timeout_ms: number; retry: RetryPolicy };

/** A manifest as loading returns it: validated, with the schema's defaults (config, http) applied. */
export type Manifest = Omit<ManifestDocument, 'config' | 'http'> & { config: JsonSchema; http: HttpPolicy };

/** One list-like action read during a sync pass (a plan read, without partitions). */
export type SyncRead = Omit<SyncPlanRead, 'for_each'>;

/** What an outbound request is for; each purpose has its own list in `hosts`. */
export type HostPurpose = keyof HostLists;

/** A loaded manifest plus where it came from, so later checks can still point at file:line:col. */
export interface LoadedManifest {
  manifest: Manifest;
  file: string;
}
