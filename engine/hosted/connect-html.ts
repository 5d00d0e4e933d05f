/**
 * The Connect page's HTML: plain server-rendered pages, every value escaped, one small inline
 * script (allowed by the CSP nonce) that polls the first sync's progress. Accessible by
 * construction: one h1 per page, labels on every input, errors tied to their inputs
 * (aria-describedby, aria-invalid), real links and buttons only.
 */
import type { FormField, SchemeForm } from './connect-form.js';

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;font-weight:600;margin-top:1rem}input,select{font:inherit;width:100%;padding:.4rem;box-sizing:border-box}
input[type=checkbox]{width:auto}button,.button{font:inherit;margin-top:1rem;padding:.5rem 1rem;cursor:pointer}
.hint{color:#555;font-size:.9rem;margin:.2rem 0}.error{color:#b00020;font-weight:600}
:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}section{border-top:1px solid #ccc;margin-top:1.5rem}`;

/** A whole page with the style and (optionally) the script under the response's CSP nonce. */
export function page(title: string, main: string, nonce: string, script = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main>${main}</main>${script ? `<script nonce="${nonce}">${script}</script>` : ''}</body></html>`;
}

/** The first page: which connector type to connect. */
export function choosePage(token: string, types: Array<{ type: string; name: string }>, nonce: string): string {
  const items = types.map((t) => `<li><a class="button" href="/connect/${token}/${escapeHtml(t.type)}">${escapeHtml(t.name)}</a></li>`).join('');
  return page('Connect an account', `<h1>Connect an account</h1><p>Choose the service to connect.</p><ul>${items}</ul>`, nonce);
}

function input(field: FormField, id: string, value: string, error: string | undefined): string {
  const described = [field.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const common = `id="${id}" name="${escapeHtml(field.key)}"${field.required ? ' required' : ''}${described ? ` aria-describedby="${described}"` : ''}${error ? ' aria-invalid="true"' : ''}`;
  if (field.kind === 'select') {
    const options = field.options.map((o) => `<option${o === value ? ' selected' : ''}>${escapeHtml(o)}</option>`).join('');
    return `<select ${common}>${options}</select>`;
  }
  if (field.kind === 'checkbox') return `<input type="checkbox" ${common}${value === 'on' ? ' checked' : ''}>`;
  const type = field.secret ? 'password' : field.kind === 'number' ? 'number' : 'text';
  // A secret is never sent back into the page, even after an error.
  const shown = field.secret ? '' : value;
  return `<input type="${type}" autocomplete="off" ${common} value="${escapeHtml(shown)}">`;
}

/** The labelled inputs of a form, each with its hint and its error. */
export function formFields(fields: FormField[], prefix: string, values: Record<string, string>, errors: Record<string, string>): string {
  return fields
    .map((field, index) => {
      const id = `${prefix}-${index}`;
      const error = errors[field.key];
      return `<label for="${id}">${escapeHtml(field.label)}${field.required ? '' : ' (optional)'}</label>${input(field, id, values[field.key] ?? '', error)}${
        field.hint ? `<p class="hint" id="${id}-hint">${escapeHtml(field.hint)}</p>` : ''
      }${error ? `<p class="error" id="${id}-error">${escapeHtml(error)}</p>` : ''}`;
    })
    .join('');
}

/** What a type page shows: the sign-in button (with the config it needs) and the token forms. */
export interface TypePageContent {
  token: string;
  type: string;
  name: string;
  oauth?: { fields: FormField[] };
  forms: SchemeForm[];
  /** After a refused submission: the scheme, its values, and the errors by field and in general. */
  failed?: { scheme: string; values: Record<string, string>; byField: Record<string, string>; general: string[] };
}

function schemeSection(content: TypePageContent, form: SchemeForm, index: number): string {
  const failed = content.failed?.scheme === form.scheme ? content.failed : undefined;
  const general = failed?.general.length ? `<div role="alert"><p class="error">${failed.general.map(escapeHtml).join('<br>')}</p></div>` : '';
  return `<section aria-labelledby="s${index}"><h2 id="s${index}">${escapeHtml(form.title)}</h2>${general}
<form method="post" action="/connect/${content.token}/${escapeHtml(content.type)}/credentials" novalidate>
<input type="hidden" name="scheme" value="${escapeHtml(form.scheme)}">${formFields(form.fields, `f${index}`, failed?.values ?? {}, failed?.byField ?? {})}
<button type="submit">Connect ${escapeHtml(content.name)}</button></form></section>`;
}

/** The page of one type: sign in with the upstream (OAuth), or fill in a token scheme. */
export function typePage(content: TypePageContent, nonce: string): string {
  const oauth = content.oauth
    ? `<section aria-labelledby="oauth"><h2 id="oauth">Sign in with ${escapeHtml(content.name)}</h2>
<p>You will approve access on ${escapeHtml(content.name)}'s own page, then come back here.</p>
<form method="post" action="/connect/${content.token}/${escapeHtml(content.type)}/authorize">${formFields(content.oauth.fields, 'o', {}, {})}
<button type="submit">Continue to ${escapeHtml(content.name)}</button></form></section>`
    : '';
  const forms = content.forms.map((form, index) => schemeSection(content, form, index)).join('');
  const body = `<h1>Connect ${escapeHtml(content.name)}</h1>${oauth}${forms}<p><a href="/connect/${content.token}">Choose another service</a></p>`;
  return page(`Connect ${content.name}`, body, nonce);
}

/** A string as a script literal: `<` escaped too, so a URL holding `</script>` cannot end the script. */
function scriptString(text: string): string {
  return JSON.stringify(text).replace(/</g, '\\u003c');
}

/** The script of the success page: polls the sync progress and then returns to the app. */
function progressScript(statusUrl: string, returnUrl: string | null): string {
  return `(function(){var list=document.getElementById('progress'),note=document.getElementById('sync-note');
function show(s){list.textContent='';s.entities.forEach(function(e){var li=document.createElement('li');li.textContent=e.entity+': '+e.records+' records ('+e.status+')';list.appendChild(li);});
var done=!s.running&&s.entities.length>0&&s.entities.every(function(e){return e.status!=='running';});
if(done){var failed=s.entities.some(function(e){return e.status==='failed';});note.textContent=failed?'First sync finished with errors.':'First sync finished.';
${returnUrl ? `location.assign(${scriptString(returnUrl)});` : ''}return;}note.textContent='Syncing...';setTimeout(poll,1000);}
function poll(){fetch(${scriptString(statusUrl)},{headers:{accept:'application/json'}}).then(function(r){return r.json();}).then(show,function(){setTimeout(poll,2000);});}
poll();})();`;
}

/** The page after a connector was created: success, then the first sync's progress. */
export function successPage(name: string, connectorId: string, statusUrl: string, returnUrl: string | null, nonce: string): string {
  const back = returnUrl ? `<p><a href="${escapeHtml(returnUrl)}">Return to the app</a></p>` : '<p>You can close this window.</p>';
  const body = `<h1 tabindex="-1" id="result">${escapeHtml(name)} connected</h1>
<p role="status">Your ${escapeHtml(name)} account is connected (connector <code>${escapeHtml(connectorId)}</code>).</p>
<h2>First sync</h2><p id="sync-note" aria-live="polite">Starting...</p><ul id="progress" aria-live="polite"></ul>${back}`;
  return page(`${name} connected`, body, nonce, `document.getElementById('result').focus();${progressScript(statusUrl, returnUrl)}`);
}

/** The page of a flow that cannot go on: what happened and what to do. */
export function errorPage(title: string, message: string, code: string, nonce: string): string {
  const body = `<h1 tabindex="-1" id="result">${escapeHtml(title)}</h1><div role="alert"><p class="error">${escapeHtml(message)}</p></div>
<p class="hint">Error code: <code>${escapeHtml(code)}</code>. No account was connected. Go back to the app to start again.</p>`;
  return page(title, body, nonce, `document.getElementById('result').focus();`);
}
