/**
 * One request to an OAuth token endpoint, shared by refreshes and code exchanges: the fields go
 * where the manifest says (form, JSON or query string), the client authenticates as it says, and
 * nothing is retried (a refresh token or a code may be single-use, so a lost answer to a retry
 * would burn it).
 */
import { EngineError, UpstreamError, UpstreamTimeoutError } from '../errors.js';
import {
  API_HEADER_DEFAULTS,
  AttemptTimeout,
  sendAttempt,
  withClientHeaders,
  type EgressPolicy,
  type Redactor,
  type UpstreamRequestListener,
} from '../http/index.js';
import type { OAuth2Spec } from '../manifest/index.js';
import { compileTemplate, type CompiledTemplate, type TemplateContext } from '../template/index.js';

/** What a token request sends. */
export interface TokenCall {
  url: URL;
  fields: Record<string, string>;
  headers: Record<string, string>;
  bodyFormat: OAuth2Spec['body_format'];
}

/** Where and how a token request may go, and what names it in errors. */
export interface TokenCallPolicy {
  /** Names the connector and the request in errors, e.g. "<connector name> token refresh". */
  label: string;
  redact: Redactor;
  timeoutMs: number;
  /** The token URL must pass hosts.token (or be an operator-named origin) before the secret is sent. */
  egress: EgressPolicy;
  onRequest?: UpstreamRequestListener;
}

/** The token endpoint's answer. */
export interface TokenAnswer {
  status: number;
  /** The body parsed as JSON, or undefined. */
  body: unknown;
  text: string;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Sends one token request and reads the whole answer, whatever its status. Why: refreshes and
 * code exchanges differ only in their fields and in what a refusal means, which callers decide.
 */
export async function sendTokenCall(call: TokenCall, policy: TokenCallPolicy): Promise<TokenAnswer> {
  const { url, fields } = call;
  if (call.bodyFormat === 'query') for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
  const { dispatcher } = policy.egress.permit(url, 'token');
  try {
    policy.onRequest?.({ kind: 'token', retry: false });
    const answer = await sendAttempt({ method: 'POST', url, ...encodedFields(call) }, dispatcher, undefined, policy.timeoutMs);
    return { status: answer.status, body: parseJson(answer.text), text: answer.text };
  } catch (error) {
    // A refusal at connect time (the guarded lookup) names the address; the policy names the request.
    const refused = policy.egress.connectRefusal(error, url, 'token');
    if (refused) throw refused;
    if (error instanceof EngineError) throw error;
    if (error instanceof AttemptTimeout) throw new UpstreamTimeoutError(`${policy.label}: the token endpoint did not answer in time`, { cause: error });
    throw new UpstreamError(policy.redact(`${policy.label} failed: ${(error as Error).message}`), { retryable: true, cause: error });
  }
}

const CONTENT_TYPES: Record<OAuth2Spec['body_format'], string> = { form: 'application/x-www-form-urlencoded', json: 'application/json', query: '' };

/**
 * The headers and body of a token request, as got's `form` and `json` options made them: the
 * fields encoded, and their Content-Type unless the manifest's headers name one.
 */
function encodedFields(call: TokenCall): { headers: Record<string, string>; body?: string } {
  const headers: Record<string, string> = withClientHeaders({ ...call.headers, accept: 'application/json' }, API_HEADER_DEFAULTS);
  const format = call.bodyFormat;
  if (format === 'query') return { headers };
  const typed = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  if (!typed) headers['content-type'] = CONTENT_TYPES[format];
  return { headers, body: format === 'json' ? JSON.stringify(call.fields) : new URLSearchParams(call.fields).toString() };
}

/** The token URL with its origin replaced by an operator's base URL (the sandbox, a proxy), if one is named. */
export function tokenUrlAt(template: CompiledTemplate, context: TemplateContext, originOverride?: string): URL {
  const url = new URL(template.render(context));
  if (!originOverride) return url;
  return new URL(url.pathname + url.search, new URL(originOverride).origin);
}

/** A compiled `client_auth` (HTTP Basic), or undefined when the client authenticates in the fields. */
export type BasicAuth = { username: CompiledTemplate; password: CompiledTemplate } | undefined;

/** Compiles a scheme's `client_auth`. Why: refreshes and code exchanges authenticate the client alike. */
export function compileClientAuth(spec: OAuth2Spec): BasicAuth {
  return spec.client_auth ? { username: compileTemplate(spec.client_auth.username), password: compileTemplate(spec.client_auth.password) } : undefined;
}

/** Renders header templates plus the Basic client authentication, if any. */
export function tokenHeaders(
  templates: ReadonlyArray<readonly [string, CompiledTemplate]>,
  basic: BasicAuth,
  context: TemplateContext,
): Record<string, string> {
  const headers: Record<string, string> = Object.fromEntries(templates.map(([k, t]) => [k, t.render(context)]));
  if (basic) {
    const pair = `${basic.username.render(context)}:${basic.password.render(context)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  }
  return headers;
}
