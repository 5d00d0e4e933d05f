/**
 * The second half of the OAuth authorization-code flow: check the callback, exchange its code at
 * the token endpoint, and hand the credentials over the way a refresh does.
 */
import { systemClock, type Clock } from '../clock/index.js';
import { AuthorizationFailedError, InternalError, UpstreamError } from '../errors.js';
import { EgressPolicy, createRedactor, type Redactor, type UpstreamRequestListener } from '../http/index.js';
import type { LoadedManifest } from '../manifest/index.js';
import { cachedTemplate } from './template-cache.js';
import { callbackCode, type CallbackInput } from './authorization-callback.js';
import {
  authorizingScheme,
  baseOrigin,
  checkedConfig,
  checkedCredentials,
  checkedText,
  checkedUrl,
  requireCredentialFields,
  type AuthorizingScheme,
} from './authorization-scheme.js';
import { schemaValidator } from './compiled-schemas.js';
import { credentialNames } from './credential-names.js';
import type { CredentialsChangeHandler } from './session.js';
import { credentialsFromAnswer, refusalMessage, type Credentials } from './token-answer.js';
import { compileClientAuth, sendTokenCall, tokenHeaders, tokenUrlAt } from './token-call.js';

/** Options of {@link finishAuthorization}. */
export interface FinishAuthorizationOptions {
  /** The OAuth app (client_id, client_secret): the new credentials are these plus the tokens. */
  credentials: Record<string, unknown>;
  /** Where the browser came back: the callback URL, its query string, or its parameters. */
  callback: CallbackInput;
  /** The state {@link startAuthorization} returned (or the caller's own, e.g. a signed one). */
  state: string;
  /** The redirect URI the authorization was started with (the upstream compares them). */
  redirectUri: string;
  /** The PKCE verifier {@link startAuthorization} returned, when the upstream takes PKCE. */
  codeVerifier?: string;
  config?: Record<string, unknown>;
  /** Replaces the token URL's origin, as `connect`'s baseUrl does (the sandbox). */
  baseUrl?: string;
  scheme?: string;
  /** Receives the new credentials before they are returned, as it receives rotated ones: persist them here. */
  onCredentialsChange?: CredentialsChangeHandler;
  /** Token request timeout in ms (default the manifest's http.timeout_ms). */
  timeoutMs?: number;
  onUpstreamRequest?: UpstreamRequestListener;
  /** Where `expires_at` is read from (default real time). */
  clock?: Clock;
}

/** The secrets of one exchange: the scheme's secret fields, the code and the verifier. */
function exchangeRedactor(flow: AuthorizingScheme, values: () => Record<string, unknown>): Redactor {
  const props = (flow.scheme.credentials.properties ?? {}) as Record<string, { writeOnly?: boolean }>;
  const secret = Object.keys(props).filter((name) => props[name]?.writeOnly === true);
  return createRedactor(() => {
    const current = values();
    return [...secret, 'access_token', 'refresh_token', 'code', 'code_verifier'].map((name) => current[name]);
  });
}

/** The exchange's answer as the scheme's credentials, or the upstream's refusal as a typed error. */
function exchangeOutcome(
  flow: AuthorizingScheme,
  label: string,
  answer: { status: number; body: unknown; text: string },
  app: Credentials,
  redact: Redactor,
  clock: Clock,
): Credentials {
  if (answer.status >= 300) {
    const message = refusalMessage(answer.body, answer.text, redact);
    const upstream = { status: answer.status, message };
    if (answer.status === 400 || answer.status === 401)
      throw new AuthorizationFailedError(`${label}: the upstream refused the authorization code (${message}); the user must authorize again`, { upstream });
    throw new UpstreamError(`${label}: the code exchange failed with ${answer.status}: ${message}`, { upstream });
  }
  const credentials = credentialsFromAnswer(flow.oauth2, app, answer.body, clock.now(), label);
  const validate = schemaValidator(flow.scheme.credentials);
  if (!validate(credentials)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
    throw new UpstreamError(`${label}: the code exchange answered credentials the ${flow.scheme.name} scheme cannot use (${problems})`);
  }
  return credentials;
}

/**
 * Finishes an authorization: checks the callback (state first; Deny is AUTHORIZATION_DENIED),
 * exchanges its code once (never retried: codes are single-use) at the scheme's token endpoint
 * with the manifest's exchange fields and client authentication, reads the answer as a refresh's
 * answer is read, and awaits `onCredentialsChange` with the new credential set before returning
 * it, as a refresh awaits it before using rotated tokens.
 * Why: the credentials a user's consent produces must be the ones `connect` takes, stored the way
 * refreshed ones are.
 */
export async function finishAuthorization(type: string | LoadedManifest, options: FinishAuthorizationOptions): Promise<Credentials> {
  const flow = authorizingScheme(type, options.scheme);
  const label = `${flow.manifest.name} authorization`;
  const app = checkedCredentials(options.credentials);
  const redirectUri = checkedUrl(options.redirectUri, '/redirectUri');
  const state = checkedText(options.state, '/state');
  const exchange = flow.authorization.exchange;
  const clientAuth = flow.oauth2.client_auth ? [flow.oauth2.client_auth.username, flow.oauth2.client_auth.password] : [];
  requireCredentialFields(app, credentialNames([...Object.values(exchange.body), ...clientAuth]), label);
  let secrets: Record<string, unknown> = { ...app };
  const redact = exchangeRedactor(flow, () => secrets);
  const code = callbackCode(options.callback, state, label, redact);
  const params = {
    code,
    redirect_uri: redirectUri,
    code_verifier: options.codeVerifier === undefined ? '' : checkedText(options.codeVerifier, '/codeVerifier'),
  };
  secrets = { ...app, ...params };
  const context = { credentials: app, config: checkedConfig(flow.manifest, options.config), params };
  const fields = Object.fromEntries(
    Object.entries(exchange.body)
      .map(([name, template]) => [name, cachedTemplate(template).render(context)] as const)
      .filter(([, value]) => value !== ''),
  );
  const headerTemplates = Object.entries({ ...flow.oauth2.headers, ...exchange.headers }).map(([k, v]) => [k, cachedTemplate(v)] as const);
  const origin = baseOrigin(options.baseUrl);
  const call = {
    url: tokenUrlAt(cachedTemplate(flow.oauth2.token_url), context, origin),
    fields,
    headers: tokenHeaders(headerTemplates, compileClientAuth(flow.oauth2), context),
    bodyFormat: flow.oauth2.body_format,
  };
  const egress = new EgressPolicy({ hosts: flow.manifest.hosts, trustedOrigins: origin ? [origin] : [], label: flow.manifest.name });
  const policy = {
    label: `${label} code exchange`,
    redact,
    timeoutMs: options.timeoutMs ?? flow.manifest.http.timeout_ms,
    egress,
    ...(options.onUpstreamRequest ? { onRequest: options.onUpstreamRequest } : {}),
  };
  const answer = await sendTokenCall(call, policy);
  const credentials = exchangeOutcome(flow, label, answer, app, redact, options.clock ?? systemClock);
  await handOver(credentials, options.onCredentialsChange, redact);
  return credentials;
}

/** Awaits the persistence hook; its failure is INTERNAL, as for rotated tokens (session.ts). */
async function handOver(credentials: Credentials, onChange: CredentialsChangeHandler | undefined, redact: Redactor): Promise<void> {
  try {
    await onChange?.({ ...credentials });
  } catch (error) {
    throw new InternalError(`onCredentialsChange failed: ${redact((error as Error)?.message ?? String(error))}`);
  }
}
