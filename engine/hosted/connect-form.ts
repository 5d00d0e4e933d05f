/**
 * The Connect page's forms, generated from a manifest: one per auth scheme a user can type in
 * (no OAuth token endpoint), its fields from the scheme's credential schema, plus the config
 * settings the type requires and has no default for.
 */
import type { ErrorDetail } from '../errors.js';
import { findManifest, type AuthScheme } from '../manifest/index.js';

/** One input of a form. */
export interface FormField {
  /** `credentials.<name>` or `config.<name>`: where the value goes. */
  key: string;
  label: string;
  hint: string;
  required: boolean;
  secret: boolean;
  kind: 'text' | 'number' | 'checkbox' | 'select';
  options: string[];
  pattern?: string;
}

/** A form of a type: the scheme it fills in and its fields. */
export interface SchemeForm {
  scheme: string;
  title: string;
  fields: FormField[];
}

type PropertySchema = { type?: string; description?: string; writeOnly?: boolean; enum?: unknown[]; pattern?: string; default?: unknown; title?: string };

function fieldsOf(schema: Record<string, unknown>, prefix: 'credentials' | 'config', onlyNeeded: boolean): FormField[] {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties)
    .filter(([name, property]) => !onlyNeeded || (required.has(name) && property.default === undefined))
    .map(([name, property]) => ({
      key: `${prefix}.${name}`,
      label: property.title ?? name.replace(/_/g, ' '),
      hint: property.description ?? '',
      required: required.has(name),
      secret: property.writeOnly === true,
      kind: property.enum ? 'select' : property.type === 'boolean' ? 'checkbox' : property.type === 'integer' || property.type === 'number' ? 'number' : 'text',
      options: (property.enum ?? []).map(String),
      ...(property.pattern ? { pattern: property.pattern } : {}),
    }));
}

/**
 * The config settings the sign-in form offers: all of them, since the authorize URL may depend on
 * one (a regional consent host) and the callback has no form of its own to ask afterwards.
 */
export function oauthConfigFields(type: string): FormField[] {
  return fieldsOf(findManifest(type).manifest.config as Record<string, unknown>, 'config', false);
}

/** The config fields a type needs from the user: required ones without a default. */
export function configFields(type: string): FormField[] {
  return fieldsOf(findManifest(type).manifest.config as Record<string, unknown>, 'config', true);
}

/** Whether a user can fill a scheme in by hand: OAuth schemes get their tokens from the flow instead. */
function typedIn(scheme: AuthScheme): boolean {
  return !scheme.oauth2;
}

/**
 * The forms of a type's token schemes (an API key with a shop name, access keys, a private-app
 * token). Why: the page offers exactly what the API's create accepts, from the manifest.
 */
export function schemeForms(type: string): SchemeForm[] {
  const { manifest } = findManifest(type);
  const config = configFields(type);
  return manifest.auth.filter(typedIn).map((scheme) => ({
    scheme: scheme.name,
    title: scheme.description ?? scheme.name,
    fields: [...fieldsOf(scheme.credentials as Record<string, unknown>, 'credentials', false), ...config],
  }));
}

function typedValue(field: FormField, text: string): unknown {
  if (field.kind === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (field.kind === 'checkbox') return text === 'on' || text === 'true';
  return text;
}

/**
 * The credentials and config a submitted form holds: empty optional inputs are left out, numbers
 * and checkboxes become JSON values, everything else stays text for the API's own checks.
 */
export function formInput(fields: FormField[], body: Record<string, string>): { credentials: Record<string, unknown>; config: Record<string, unknown> } {
  const out = { credentials: {} as Record<string, unknown>, config: {} as Record<string, unknown> };
  for (const field of fields) {
    const text = body[field.key];
    if (text === undefined || (text === '' && field.kind !== 'checkbox')) continue;
    const [where, name] = field.key.split('.') as ['credentials' | 'config', string];
    out[where][name] = typedValue(field, text);
  }
  return out;
}

/**
 * The API error's details placed at their fields (`/credentials/shop` -> `credentials.shop`); a
 * detail of another scheme is dropped, one of no field stays general.
 */
export function fieldErrors(
  details: readonly ErrorDetail[] | undefined,
  scheme: string,
  fields: FormField[],
): { byField: Record<string, string>; general: string[] } {
  const keys = new Set(fields.map((field) => field.key));
  const out = { byField: {} as Record<string, string>, general: [] as string[] };
  for (const detail of details ?? []) {
    const schemePrefix = /^([a-z0-9_]+): /.exec(detail.message);
    if (schemePrefix && schemePrefix[1] !== scheme && /^\/credentials/.test(detail.path)) continue;
    const message = schemePrefix && schemePrefix[1] === scheme ? detail.message.slice(schemePrefix[0].length) : detail.message;
    const key = detail.path.replace(/^\//, '').split('/').slice(0, 2).join('.');
    // A config setting the manifest takes from the credentials (config_from_credentials, e.g. a shop name) is checked as config first.
    const fromCredentials = key.replace(/^config\./, 'credentials.');
    if (keys.has(key)) out.byField[key] ??= message;
    else if (keys.has(fromCredentials)) out.byField[fromCredentials] ??= message;
    else out.general.push(`${detail.path} ${message}`);
  }
  return out;
}
