/**
 * The HTML of a fake's authorize endpoint: a consent page with Approve and Deny (a form POST to
 * the same path, so it works without script), and the page shown when the request cannot be
 * answered by a redirect. Plain, accessible markup: a labelled form, named buttons, the scopes as
 * a list.
 */
import { textResponse, type FakeResponse } from '../responses.js';

const HTML = 'text/html;charset=utf-8';
const NO_STORE = { 'cache-control': 'no-store' };

/** Escapes text for HTML content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** What the consent page shows and posts back. */
export interface ConsentView {
  /** The upstream's name (e.g. HubSpot). */
  upstream: string;
  /** The path the form posts to (the authorize endpoint itself). */
  action: string;
  /** The requested scopes, shown to the user. */
  scopes: readonly string[];
  /** The authorize parameters, carried through the POST as hidden fields. */
  fields: Readonly<Record<string, string>>;
}

/**
 * The consent page: 200, HTML, never cached. Why: a user (or a browser test) approves or denies
 * here, as on the upstream's own page.
 */
export function consentPage(view: ConsentView): FakeResponse {
  const hidden = Object.entries(view.fields)
    .map(([name, value]) => `  <input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const scopes = view.scopes.length > 0 ? view.scopes.map((scope) => `  <li>${escapeHtml(scope)}</li>`).join('\n') : '  <li>Default access</li>';
  const body = `<h1 id="consent-title">Connect to ${escapeHtml(view.upstream)}</h1>
<p id="consent-summary">An app asks to access your ${escapeHtml(view.upstream)} account with these permissions:</p>
<ul aria-labelledby="consent-summary">
${scopes}
</ul>
<form method="post" action="${escapeHtml(view.action)}" aria-labelledby="consent-title">
${hidden}
  <button type="submit" name="decision" value="approve">Approve</button>
  <button type="submit" name="decision" value="deny">Deny</button>
</form>`;
  return textResponse(200, page(`Connect to ${view.upstream}`, body), HTML, NO_STORE);
}

/**
 * An error page (no redirect): RFC 6749 §4.1.2.1 forbids redirecting when the client or the
 * redirect URI is invalid. Why: the user must see the problem; the app never hears of it.
 */
export function authorizeErrorPage(status: number, upstream: string, message: string): FakeResponse {
  const body = `<h1>${escapeHtml(upstream)} authorization failed</h1>
<p role="alert">${escapeHtml(message)}</p>`;
  return textResponse(status, page(`${upstream} authorization failed`, body), HTML, NO_STORE);
}
