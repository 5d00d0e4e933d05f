export { AuthSession, type AuthSessionOptions, type CredentialsChangeHandler, type RefreshCoordinator } from './session.js';
export { selectScheme } from './select-scheme.js';
export type { Credentials } from './oauth-refresh.js';
export { startAuthorization, type AuthorizationStart, type StartAuthorizationOptions } from './start-authorization.js';
export { finishAuthorization, type FinishAuthorizationOptions } from './finish-authorization.js';
export type { CallbackInput } from './authorization-callback.js';
