/**
 * The "Auth" part of a reference page: each scheme, its credential fields (type, required,
 * secret) and how requests are signed. Only field names and templates are shown, never a value.
 */
import type { AuthScheme, Manifest, OAuth2Spec, SignSpec } from '../../engine/manifest/index.js';
import { code, table } from './markdown.js';
import { schemaRows } from './schema-rows.js';
import { constraintText, descriptionText, typeText } from './schema-words.js';

function signText(sign: SignSpec): string {
  const headers = Object.entries((sign.type === 'basic' ? undefined : sign.headers) ?? {}).map(([name, value]) => `${code(`${name}: ${value}`)}`);
  const extra = headers.length > 0 ? `, with the header${headers.length > 1 ? 's' : ''} ${headers.join(', ')}` : '';
  if (sign.type === 'bearer') return `Requests carry ${code(`Authorization: Bearer ${sign.token}`)}${extra}.`;
  if (sign.type === 'basic') return `Requests use HTTP Basic authentication, user ${code(sign.username)} and password ${code(sign.password)}.`;
  return `Requests carry ${headers.join(', ')}.`;
}

function oauthText(oauth: OAuth2Spec): string {
  // Without the setting the engine keeps its own margin (engine/auth), which this page does not repeat.
  const before = oauth.refresh_before_expiry_seconds === undefined ? 'shortly' : `${oauth.refresh_before_expiry_seconds} s`;
  const rotates = oauth.rotates_refresh_token
    ? ' Each refresh token is single-use: the engine hands the new one to `onCredentialsChange` before using it.'
    : '';
  const kept = Object.keys(oauth.response.keep ?? {});
  const keeps = kept.length > 0 ? ` The token answer also sets ${kept.map(code).join(', ')}.` : '';
  return `The access token is refreshed at ${code(oauth.token_url)} (${oauth.body_format} request) ${before} before it expires, and once after a 401.${rotates}${keeps}`;
}

function credentialTable(scheme: AuthScheme): string {
  const rows = schemaRows(scheme.credentials).map((row) => [
    code(row.path),
    typeText(row.schema),
    row.required ? 'yes' : 'no',
    row.schema.writeOnly === true ? 'yes (writeOnly)' : 'no',
    constraintText(row.schema),
    descriptionText(row.schema),
  ]);
  return table(['Field', 'Type', 'Required', 'Secret', 'Constraints', 'Description'], rows);
}

function schemeText(scheme: AuthScheme): string {
  const parts = [`### ${code(scheme.name)}`, ''];
  if (scheme.description) parts.push(scheme.description, '');
  parts.push(credentialTable(scheme), '', signText(scheme.sign));
  if (scheme.oauth2) parts.push('', oauthText(scheme.oauth2));
  if (scheme.base_url_from) parts.push('', `Calls go to the base URL in the credential field ${code(scheme.base_url_from.field)} when it is set.`);
  return parts.join('\n');
}

/** The auth part: how a scheme is chosen, then each scheme. */
export function authSection(manifest: Manifest): string {
  const check = manifest.check;
  const intro = [
    `The credentials passed to ${code('connect')} (or sent when a hosted connector is created) select the scheme: the first one, in this order, whose fields they match. Secret fields are never logged or returned.`,
    '',
    `${code('checkCredentials()')} reads ${code(`${check.entity} ${check.action}`)}${check.params ? ` with ${code(JSON.stringify(check.params))}` : ''} to check them.`,
  ];
  return ['## Auth', '', ...intro, '', ...manifest.auth.map(schemeText).flatMap((text) => [text, ''])].join('\n').trimEnd();
}
