/**
 * The Asana fake upstream (the folder's only door).
 */
export { startAsanaFake, DEFAULT_TOO_LARGE_THRESHOLD } from './asana-fake.js';
export type { AsanaFake, AsanaFakeOptions, AsanaStats } from './asana-fake.js';
export type { AsanaAnchors, AsanaDataset } from './dataset.js';
export type { AsanaAttachment, AsanaProject, AsanaSection, AsanaTag, AsanaTask, AsanaTeam, AsanaUser, AsanaWorkspace, AttachmentHost } from './model.js';
export type { BlobRequest } from './blob-server.js';
export type { FakeClock } from '../fake-clock.js';
export { BLOB_CHUNK_SIZE, blobSha256, expectedBlobBytes } from './blob-bytes.js';
export { DOWNLOAD_URL_TTL_SECONDS } from './blob-url.js';
export { DEFAULT_OFFSET_TTL_MS } from './offset-token.js';
export { ACCESS_TOKEN_TTL_SECONDS } from './credentials.js';
export { ANCHOR_ATTACHMENT_SIZE, LARGE_ATTACHMENT_SIZE, PREMIUM_EMAIL_DOMAIN, asanaSeedPlan } from './seed-data.js';
export { RATE_LIMIT_MESSAGE, SEARCH_PREMIUM_MESSAGE, TOO_LARGE_MESSAGE, ERRORS_HELP } from './errors.js';
export { TASKS_FILTER_MESSAGE } from './task-lists.js';
export { NEED_WORKSPACE_MESSAGE } from './project-lists.js';
export { SEARCH_DEFAULT_LIMIT } from './task-search.js';
