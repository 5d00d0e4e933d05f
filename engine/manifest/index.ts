export { parseManifest, loadManifestFile } from './load.js';
export { findManifest, shippedManifests, shippedTypes, connectorsDir } from './registry.js';
export { createParamsAjv, type Ajv, type ErrorObject, type ValidateFunction } from './schema-validator.js';
export type * from './types.js';
export { planReads } from './plan-reads.js';
export { hostMatches, hostAllowed } from './host-pattern.js';
export { configNeeds, lookupHint, missingConfig, type ConfigNeed } from './config-needs.js';
export { MAX_TOOL_NAME, TOOL_ID_CHARS } from './agent-semantics.js';
