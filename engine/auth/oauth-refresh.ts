import got from 'got';
import { systemClock, type Clock } from '../clock/index.js';
import { EngineError, ReauthRequiredError, UpstreamError, UpstreamTimeoutError } from '../errors.js';
import { readPath, type EgressPolicy, type Redactor, type UpstreamRequestListener } from '../http/index.js';
import type { OAuth2Spec, ReauthMatcher } from '../manifest/index.js';
import { compileTemplate, type TemplateContext } from '../template/index.js';

export type Credentials = Record<string, unknown>;

function matches(matcher: ReauthMatcher, status: number, body: unknown): boolean {
  if (matcher.status !== undefined && matcher.status !== status) return false;
  if (matcher.path !== undefined && readPath(body, matcher.path) !== matcher.equals) return false;
  return true;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The refresh request of one OAuth scheme, compiled once. */
export class OAuthRefresher {
  private readonly url;
  private readonly body;
  private readonly headers;
  private readonly basic;

  constructor(
    private readonly spec: OAuth2Spec,
    private readonly label: string,
    private readonly redact: Redactor,
    private readonly timeoutMs: number,
    private readonly egress: EgressPolicy,
    private readonly originOverride?: string,
    private readonly onRequest?: UpstreamRequestListener,
    private readonly clock: Clock = systemClock,
  ) {
    this.url = compileTemplate(spec.token_url);
    this.body = Object.entries(spec.body).map(([k, v]) => [k, compileTemplate(v)] as const);
    this.headers = Object.entries(spec.headers ?? {}).map(([k, v]) => [k, compileTemplate(v)] as const);
    this.basic = spec.client_auth ? { username: compileTemplate(spec.client_auth.username), password: compileTemplate(spec.client_auth.password) } : undefined;
  }

  private tokenUrl(context: TemplateContext): URL {
    const url = new URL(this.url.render(context));
    if (!this.originOverride) return url;
    const base = new URL(this.originOverride);
    return new URL(url.pathname + url.search, base.origin);
  }

  /**
   * Asks the token endpoint for a new access token and returns the credential set to store. Never
   * retried: with single-use refresh tokens a lost answer to a retried request would burn the grant.
   * The token URL must pass the egress policy (hosts.token) before the client secret is sent.
   */
  async refresh(context: TemplateContext & { credentials: Credentials }): Promise<Credentials> {
    const fields = Object.fromEntries(this.body.map(([k, t]) => [k, t.render(context)]));
    const headers: Record<string, string> = Object.fromEntries(this.headers.map(([k, t]) => [k, t.render(context)]));
    if (this.basic) {
      const pair = `${this.basic.username.render(context)}:${this.basic.password.render(context)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    }
    headers.accept = 'application/json';
    const url = this.tokenUrl(context);
    if (this.spec.body_format === 'query') for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
    const body = this.spec.body_format === 'form' ? { form: fields } : this.spec.body_format === 'json' ? { json: fields } : {};
    const { dnsLookup } = this.egress.permit(url, 'token');
    let response;
    try {
      this.onRequest?.({ kind: 'token', retry: false });
      response = await got.post(url, {
        ...(dnsLookup ? { dnsLookup } : {}),
        headers,
        ...body,
        responseType: 'text',
        throwHttpErrors: false,
        followRedirect: false,
        retry: { limit: 0 },
        timeout: { request: this.timeoutMs },
      });
    } catch (error) {
      // A refusal at connect time (the guarded lookup) arrives wrapped in got's RequestError.
      if ((error as { cause?: unknown }).cause instanceof EngineError) throw (error as { cause: EngineError }).cause;
      const code = (error as { code?: string }).code;
      if (code === 'ETIMEDOUT') throw new UpstreamTimeoutError(`${this.label} token endpoint did not answer in time`, { cause: error });
      throw new UpstreamError(this.redact(`${this.label} token refresh failed: ${(error as Error).message}`), { retryable: true, cause: error });
    }
    const answer = parseJson(response.body);
    if (response.statusCode >= 300) throw this.failure(response.statusCode, answer, response.body);
    return this.credentialsFrom(context.credentials, answer);
  }

  private failure(status: number, body: unknown, text: string): EngineError {
    const upstreamMessage = this.redact(
      String(readPath(body, 'error_description') ?? readPath(body, 'message') ?? readPath(body, 'error') ?? text.slice(0, 200)),
    );
    const upstream = { status, message: upstreamMessage };
    const dead =
      ((status === 400 || status === 401) && readPath(body, 'error') === 'invalid_grant') ||
      (this.spec.reauth_when ?? []).some((m) => matches(m, status, body));
    if (dead) {
      return new ReauthRequiredError(`${this.label} refused the refresh token (${upstreamMessage}); the user must authorize again`, { upstream });
    }
    return new UpstreamError(`${this.label} token refresh failed with ${status}: ${upstreamMessage}`, {
      upstream,
      retryable: status >= 500,
    });
  }

  private credentialsFrom(previous: Credentials, body: unknown): Credentials {
    const { response } = this.spec;
    const accessToken = readPath(body, response.access_token);
    if (typeof accessToken !== 'string' || accessToken === '') {
      throw new UpstreamError(`${this.label} token endpoint answered without ${response.access_token}`);
    }
    const next: Credentials = { ...previous, access_token: accessToken };
    const refreshToken = response.refresh_token ? readPath(body, response.refresh_token) : undefined;
    if (typeof refreshToken === 'string' && refreshToken !== '') next.refresh_token = refreshToken;
    else if (this.spec.rotates_refresh_token) {
      throw new UpstreamError(`${this.label} rotates refresh tokens but its answer held none`);
    }
    const expiresIn = response.expires_in ? Number(readPath(body, response.expires_in)) : Number.NaN;
    if (Number.isFinite(expiresIn)) next.expires_at = new Date(this.clock.now() + expiresIn * 1000).toISOString();
    for (const [field, path] of Object.entries(response.keep ?? {})) {
      const value = readPath(body, path);
      if (value !== undefined) next[field] = value;
    }
    return next;
  }
}
