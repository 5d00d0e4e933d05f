/**
 * The Gong fake upstream (the folder's only door).
 */
export { startGongFake } from './gong-fake.js';
export type { GongFake, GongFakeOptions, GongStats } from './gong-fake.js';
export type { CallRecord, GongCounts, GongDataset } from './dataset.js';
export type { CrmLink, GongCall, GongMonologue, GongParty, GongUser, GongUserSettings, GongWorkspace } from './records.js';
export type { RefreshTokenRecord, RefreshTokenStatus } from '../oauth/index.js';
export type { CallDetails, TrackerHit } from './call-details.js';
export type { GongHost } from './authenticate.js';
export { CALLS_FROM, CALLS_TO, COMPANY_NAME } from './seed-data.js';
export { TRACKER_IDS } from './call-details.js';
export { PAGE_SIZE } from './paging.js';
export { NO_CALLS_FOUND } from './errors.js';
export { AUTH_MESSAGES } from './authenticate.js';
export { ACCESS_TOKEN_TTL_SECONDS, GRANTED_SCOPES } from './credentials.js';
export { MEDIA_URL_TTL_SECONDS } from './render-extensive.js';
export { RATE_LIMIT_MESSAGE } from './rate-limits.js';
