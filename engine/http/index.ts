export { HttpClient, type OutgoingRequest, type UpstreamAnswer, type HttpStats } from './client.js';
export { createRedactor, type Redactor } from './redact.js';
export { parseRetryAfter } from './retry-after.js';
export { readPath } from './body-path.js';
export { RequestLimiter } from './limiter.js';
export { EgressPolicy, type EgressPermit, type EgressPolicyOptions, type EgressRule } from './egress-policy.js';
export { addressRange, isIpLiteral } from './address-range.js';
export type { UpstreamRequest, UpstreamRequestKind, UpstreamRequestListener } from './upstream-requests.js';
