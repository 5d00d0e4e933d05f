import { systemClock, type Clock } from '../clock/index.js';
import { ReauthRequiredError, UpstreamError, type EngineError } from '../errors.js';
import { readPath, type EgressPolicy, type Redactor, type UpstreamRequestListener } from '../http/index.js';
import type { OAuth2Spec, ReauthMatcher } from '../manifest/index.js';
import { compileTemplate, type TemplateContext } from '../template/index.js';
import { credentialsFromAnswer, refusalMessage, type Credentials } from './token-answer.js';
import { compileClientAuth, sendTokenCall, tokenHeaders, tokenUrlAt } from './token-call.js';

export type { Credentials } from './token-answer.js';

function matches(matcher: ReauthMatcher, status: number, body: unknown): boolean {
  if (matcher.status !== undefined && matcher.status !== status) return false;
  if (matcher.path !== undefined && readPath(body, matcher.path) !== matcher.equals) return false;
  return true;
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
    this.basic = compileClientAuth(spec);
  }

  /**
   * Asks the token endpoint for a new access token and returns the credential set to store. Never
   * retried: with single-use refresh tokens a lost answer to a retried request would burn the grant.
   * The token URL must pass the egress policy (hosts.token) before the client secret is sent.
   */
  async refresh(context: TemplateContext & { credentials: Credentials }): Promise<Credentials> {
    const fields = Object.fromEntries(this.body.map(([k, t]) => [k, t.render(context)]));
    const call = {
      url: tokenUrlAt(this.url, context, this.originOverride),
      fields,
      headers: tokenHeaders(this.headers, this.basic, context),
      bodyFormat: this.spec.body_format,
    };
    const answer = await sendTokenCall(call, {
      label: `${this.label} token refresh`,
      redact: this.redact,
      timeoutMs: this.timeoutMs,
      egress: this.egress,
      ...(this.onRequest ? { onRequest: this.onRequest } : {}),
    });
    if (answer.status >= 300) throw this.failure(answer.status, answer.body, answer.text);
    return credentialsFromAnswer(this.spec, context.credentials, answer.body, this.clock.now(), this.label);
  }

  private failure(status: number, body: unknown, text: string): EngineError {
    const upstreamMessage = refusalMessage(body, text, this.redact);
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
}
