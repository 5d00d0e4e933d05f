import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EngineError, InvalidRequestError, UnknownConnectorTypeError } from '../../errors.js';
import { findManifest, shippedManifests } from '../../manifest/index.js';
import { bodySchema } from '../body-schemas.js';
import type { ConnectSessionBody } from '../body-types.generated.js';
import { fieldErrors, formInput, oauthConfigFields, schemeForms } from '../connect-form.js';
import { CONNECT_CALLBACK_PATH, ConnectFlow, type ConnectOutcome } from '../connect-flow.js';
import { choosePage, errorPage, successPage, typePage } from '../connect-html.js';
import { CONNECT_SESSION_TTL_MS, newSessionToken, sessionId } from '../connect-sessions.js';
import { tenantOf, type HostedContext } from '../hosted-context.js';

interface TokenParams {
  Params: { token: string };
}
interface TypeParams {
  Params: { token: string; type: string };
}

function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function checkedTypes(types: string[] | undefined): string[] | null {
  if (!types) return null;
  const known = [...shippedManifests().keys()];
  return types.map((type, index) => {
    const name = type.toLowerCase();
    if (!known.includes(name)) {
      throw new UnknownConnectorTypeError(`connector_types[${index}] "${type.slice(0, 100)}" is not a connector type`, {
        details: [{ path: `/connector_types/${index}`, message: `must be one of ${known.join(', ')}` }],
      });
    }
    return name;
  });
}

function checkedReturnUrl(value: string | undefined): string | null {
  if (value === undefined) return null;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new InvalidRequestError('return_url must be an absolute http(s) URL', {
      details: [{ path: '/return_url', message: 'must be an absolute http(s) URL' }],
    });
  }
  return value;
}

/** POST /v1/connect/sessions (scoped): a single-use Connect page link for the token's end user. */
export function registerConnectSessionRoute(scoped: FastifyInstance, context: HostedContext): void {
  scoped.post<{ Body: ConnectSessionBody }>('/v1/connect/sessions', { schema: { body: bodySchema('hosted-connect-session') } }, async (request, reply) => {
    const tenant = tenantOf(request);
    const types = checkedTypes(request.body.connector_types);
    const returnUrl = checkedReturnUrl(request.body.return_url);
    const token = newSessionToken();
    const expiresAt = context.clock.now() + CONNECT_SESSION_TTL_MS;
    await context.store.connectRecords().createSession({
      id: sessionId(token),
      client_id: tenant.clientId,
      external_user_id: tenant.externalUserId,
      connector_types: types,
      return_url: returnUrl,
      expires_at: expiresAt,
    });
    return reply.code(201).send({ url: `${origin(request)}/connect/${token}`, expires_at: new Date(expiresAt).toISOString() });
  });
}

/**
 * Every page answer: HTML that is never cached, never framed, sends no Referer (the link's token
 * must not reach the upstream), and runs only its own nonce'd style and script. form-action is
 * left open on purpose: Chrome applies it to the redirect after the sign-in form, and that goes
 * to each upstream's own consent host.
 */
function sendPage(reply: FastifyReply, status: number, render: (nonce: string) => string): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header(
      'content-security-policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'`,
    )
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .send(render(nonce));
}

const TITLES: Record<string, string> = {
  AUTHORIZATION_DENIED: 'Access was denied',
  CONNECT_SESSION_EXPIRED: 'This connect link can no longer be used',
  AUTHORIZATION_FAILED: 'Sign-in could not be completed',
  INVALID_CREDENTIALS: 'The account could not be checked',
  NOT_FOUND: 'Not found',
};

/** A page for a typed error: its own title, message and code; anything else goes to the service's error handler. */
function sendErrorPage(reply: FastifyReply, error: unknown): FastifyReply {
  if (!(error instanceof EngineError)) throw error;
  const message =
    error.code === 'AUTHORIZATION_DENIED'
      ? 'You chose Deny on the sign-in page, so no account was connected. You can start again from the app.'
      : error.message;
  return sendPage(reply, error.status, (nonce) => errorPage(TITLES[error.code] ?? 'Could not connect', message, error.code, nonce));
}

function sendSuccess(reply: FastifyReply, outcome: ConnectOutcome): FastifyReply {
  const { row, session, statusKey } = outcome;
  const name = findManifest(row.connector_type).manifest.name;
  const back = session.return_url ? new URL(session.return_url) : undefined;
  back?.searchParams.set('connector_id', row.id);
  return sendPage(reply, 200, (nonce) => successPage(name, row.id, `/connect/status/${statusKey}`, back?.toString() ?? null, nonce));
}

/** The form body as strings (the page posts application/x-www-form-urlencoded); the last value of a repeated name wins. */
function formBody(request: FastifyRequest): Record<string, string> {
  return (request.body ?? {}) as Record<string, string>;
}

async function typePageContent(flow: ConnectFlow, token: string, type: string): Promise<Parameters<typeof typePage>[0]> {
  const app =
    (await flow.oauthApp(type)) && findManifest(type).manifest.auth.some((scheme) => scheme.authorization) ? { fields: oauthConfigFields(type) } : undefined;
  return { token, type, name: findManifest(type).manifest.name, forms: schemeForms(type), ...(app ? { oauth: app } : {}) };
}

/** The choose page and the type page. */
function registerPages(app: FastifyInstance, flow: ConnectFlow): void {
  app.get<TokenParams>('/connect/:token', async (request, reply) => {
    try {
      const session = await flow.session(request.params.token);
      const types = session.connector_types ?? [...shippedManifests().keys()];
      return sendPage(reply, 200, (nonce) =>
        choosePage(
          request.params.token,
          types.map((type) => ({ type, name: findManifest(type).manifest.name })),
          nonce,
        ),
      );
    } catch (error) {
      return sendErrorPage(reply, error);
    }
  });
  app.get<TypeParams>('/connect/:token/:type', async (request, reply) => {
    try {
      const type = flow.allowedType(await flow.session(request.params.token), request.params.type);
      const content = await typePageContent(flow, request.params.token, type);
      return sendPage(reply, 200, (nonce) => typePage(content, nonce));
    } catch (error) {
      return sendErrorPage(reply, error);
    }
  });
}

/** Sign in with the upstream: the callback, and the POST that sends the browser to the consent page. */
function registerOAuth(app: FastifyInstance, flow: ConnectFlow): void {
  app.post<TypeParams>('/connect/:token/:type/authorize', async (request, reply) => {
    try {
      const session = await flow.session(request.params.token);
      const type = flow.allowedType(session, request.params.type);
      const oauthApp = await flow.oauthApp(type);
      if (!oauthApp) throw new InvalidRequestError(`no OAuth app is configured for ${type}`, { details: [{ path: '/type', message: 'has no OAuth app' }] });
      const { config } = formInput(oauthConfigFields(type), formBody(request));
      return reply.redirect(await flow.authorize(session, type, origin(request), oauthApp, config), 303);
    } catch (error) {
      return sendErrorPage(reply, error);
    }
  });
  app.get<{ Querystring: Record<string, string> }>(CONNECT_CALLBACK_PATH, async (request, reply) => {
    try {
      return sendSuccess(reply, await flow.callback(request.query, origin(request)));
    } catch (error) {
      return sendErrorPage(reply, error);
    }
  });
}

/** A token scheme's form: the API's checks, errors shown next to their fields. */
function registerCredentialsForm(app: FastifyInstance, flow: ConnectFlow): void {
  app.post<TypeParams>('/connect/:token/:type/credentials', async (request, reply) => {
    const { token } = request.params;
    const body = formBody(request);
    try {
      const session = await flow.session(token);
      const type = flow.allowedType(session, request.params.type);
      const form = schemeForms(type).find((candidate) => candidate.scheme === body.scheme);
      if (!form)
        throw new InvalidRequestError('scheme must name a form of this page', { details: [{ path: '/scheme', message: 'is not a form of this type' }] });
      try {
        const input = formInput(form.fields, body);
        return sendSuccess(reply, await flow.create(session, { connector_type: type, ...input }));
      } catch (error) {
        if (!(error instanceof EngineError) || error.status !== 400) throw error;
        const errors = fieldErrors(error.details, form.scheme, form.fields);
        if (Object.keys(errors.byField).length === 0 && errors.general.length === 0) errors.general.push(error.message);
        const content = { ...(await typePageContent(flow, token, type)), failed: { scheme: form.scheme, values: body, ...errors } };
        return sendPage(reply, 400, (nonce) => typePage(content, nonce));
      }
    } catch (error) {
      return sendErrorPage(reply, error);
    }
  });
}

/**
 * The Connect page (issue 16), served without a platform token: the link's token is the
 * authority. Its own scope reads form posts; the rest of the service reads JSON only.
 */
export function registerConnectPages(app: FastifyInstance, context: HostedContext): void {
  const flow = new ConnectFlow(context);
  app.register(async (pages) => {
    pages.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    registerPages(pages, flow);
    registerOAuth(pages, flow);
    registerCredentialsForm(pages, flow);
    pages.get<{ Params: { key: string } }>('/connect/status/:key', async (request) => flow.progress(request.params.key));
  });
}
