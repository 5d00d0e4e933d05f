/**
 * The browser's part of an OAuth authorization, over real HTTP on loopback: an app's callback
 * endpoint that records where the upstream sent the browser back, and a user who opens a fake's
 * consent page and presses Approve or Deny (the page's form, posted as a browser would).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpCall, type HttpAnswer } from './http-call.js';

/** An app's redirect URI on loopback. */
export interface CallbackReceiver {
  /** The redirect URI (http://127.0.0.1:PORT/oauth/callback). */
  url: string;
  /** Every callback URL the browser arrived with, oldest first. */
  readonly received: string[];
  close(): Promise<void>;
}

/** Starts a callback endpoint that answers 200 and records each request's full URL. */
export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    received.push(new URL(req.url ?? '/', `http://${req.headers.host}`).toString());
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('connected');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/oauth/callback`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
}

/** The hidden fields and the action of the consent page's form. */
export function consentForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1];
  if (action === undefined) throw new Error(`no consent form in: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) fields[unescapeHtml(match[1]!)] = unescapeHtml(match[2]!);
  return { action: unescapeHtml(action), fields };
}

/** What the user saw and where the browser ended. */
export interface ConsentOutcome {
  /** The consent page (GET of the authorize URL). */
  page: HttpAnswer;
  /** The answer after the decision, redirects followed (the app's callback endpoint). */
  final: HttpAnswer;
}

/**
 * Opens the authorize URL, then submits the consent form with the given button, following the
 * redirect to the app as a browser does.
 */
export async function decideOnConsentPage(authorizeUrl: string, decision: 'approve' | 'deny'): Promise<ConsentOutcome> {
  const page = await httpCall(authorizeUrl);
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${page.text.slice(0, 300)}`);
  const form = consentForm(page.text);
  const final = await httpCall(new URL(form.action, authorizeUrl).toString(), { form: { ...form.fields, decision } });
  return { page, final };
}
