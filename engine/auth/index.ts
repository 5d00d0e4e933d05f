export { AuthSession, type AuthSessionOptions, type CredentialsChangeHandler, type RefreshCoordinator } from './session.js';
export { selectScheme } from './select-scheme.js';
export type { Credentials } from './oauth-refresh.js';
