/**
 * Webhooks: the worker that delivers the store's outbox to the endpoints operators register,
 * the Standard Webhooks signature (and its verification for integrators), and the checks of
 * endpoint input. This file is the folder's only door.
 */
export { WebhookWorker, type WebhookWorkerOptions, type WebhookLogger } from './webhook-worker.js';
export { DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from './retry-policy.js';
export { newSigningSecret, signWebhook, verifyWebhookSignature, DEFAULT_TOLERANCE_SECONDS, type VerifyOptions, type WebhookHeaders } from './signature.js';
export { parseEndpointUrl, parseEventList } from './endpoint-input.js';
