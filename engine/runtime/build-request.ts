import { InvalidConfigError, InvalidParamsError } from '../errors.js';
import type { OutgoingRequest } from '../http/index.js';
import type { ActionSpec, TemplateTree } from '../manifest/index.js';
import { formEncoded } from './form-encode.js';
import { compilePath, compileTemplate, type CompiledPath, type CompiledTemplate, type TemplateContext } from '../template/index.js';

type CompiledTree = CompiledTemplate | CompiledTree[] | { [key: string]: CompiledTree } | number | boolean | null;

/** The request templates of one action, compiled once. */
export interface CompiledRequest {
  method: OutgoingRequest['method'];
  path: CompiledPath;
  query: Array<[string, CompiledTemplate]>;
  headers: Array<[string, CompiledTemplate]>;
  body?: CompiledTree;
  bodyIsText: boolean;
  bodyFormat: 'json' | 'form';
  readOnly: boolean;
  requiredConfig: string[];
  /** Per required setting, where a user finds its value (manifest config_lookup), or ''. */
  configHints: Record<string, string>;
  emptyOn?: ActionSpec['response']['empty_on'];
}

function compileTree(tree: TemplateTree): CompiledTree {
  if (typeof tree === 'string') return compileTemplate(tree);
  if (Array.isArray(tree)) return tree.map(compileTree);
  if (tree && typeof tree === 'object') return Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, compileTree(v)]));
  return tree;
}

function isTemplate(node: CompiledTree): node is CompiledTemplate {
  return typeof node === 'object' && node !== null && 'render' in node;
}

function evaluateTree(node: CompiledTree, context: TemplateContext): unknown {
  if (isTemplate(node)) {
    const value = node.value(context);
    return value === '' ? undefined : value;
  }
  if (Array.isArray(node)) return node.map((item) => evaluateTree(item, context)).filter((v) => v !== undefined);
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      const value = evaluateTree(child, context);
      if (value !== undefined) out[key] = value;
    }
    // An object whose every entry was left out is left out too (e.g. a filter with no values).
    return Object.keys(out).length === 0 && Object.keys(node).length > 0 ? undefined : out;
  }
  return node;
}

/** Compiles an action's request spec; `hint` says where a user finds a required setting's value. */
export function compileRequest(action: ActionSpec, hint: (setting: string) => string = () => ''): CompiledRequest {
  const spec = action.request;
  return {
    method: spec.method,
    path: compilePath(spec.path),
    query: Object.entries(spec.query ?? {}).map(([k, v]) => [k, compileTemplate(v)]),
    headers: Object.entries(spec.headers ?? {}).map(([k, v]) => [k.toLowerCase(), compileTemplate(v)]),
    ...(spec.body !== undefined ? { body: compileTree(spec.body) } : {}),
    bodyIsText: typeof spec.body === 'string' && !/^\{\{\s*[\w.]+\s*\}\}$/.test(spec.body),
    bodyFormat: spec.body_format ?? 'json',
    readOnly: spec.read_only === true,
    requiredConfig: spec.required_config ?? [],
    configHints: Object.fromEntries((spec.required_config ?? []).map((setting) => [setting, hint(setting)])),
    ...(action.response.empty_on ? { emptyOn: action.response.empty_on } : {}),
  };
}

function queryText(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(String).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function headerSafe(name: string, value: string): string {
  if (/[\r\n]/.test(value)) {
    throw new InvalidParamsError(`header ${name} would contain a line break`, {
      details: [{ path: `/${name}`, message: 'may not contain line breaks' }],
    });
  }
  return value;
}

/** Refuses a request whose required settings are missing, naming where each is found. */
function checkRequiredConfig(compiled: CompiledRequest, context: TemplateContext): void {
  const missing = compiled.requiredConfig.filter((name) => context.config?.[name] === undefined || context.config?.[name] === '');
  if (missing.length === 0) return;
  const hints = missing.map((name) => compiled.configHints[name]).filter(Boolean);
  throw new InvalidConfigError(
    `this request needs config ${missing.join(', ')}${hints.length > 0 ? ` (${hints.join('; ')})` : ''}; set it when connecting (config: { ${missing.map((m) => `${m}: ...`).join(', ')} })`,
    {
      details: missing.map((name) => ({
        path: `/config/${name}`,
        message: `is required for this action${compiled.configHints[name] ? `; ${compiled.configHints[name]}` : ''}`,
      })),
    },
  );
}

/** Base URLs as parsed, by their text: a connection's base rarely changes, and parsing it on every call costs. */
const bases = new Map<string, { origin: string; basePath: string }>();
const MAX_BASES = 256;

function baseOf(baseUrl: string): { origin: string; basePath: string } {
  let base = bases.get(baseUrl);
  if (!base) {
    const parsed = new URL(baseUrl);
    base = { origin: parsed.origin, basePath: parsed.pathname.replace(/\/+$/, '') };
    if (bases.size >= MAX_BASES) bases.clear();
    bases.set(baseUrl, base);
  }
  return base;
}

/**
 * The URL of one call, checked: whatever the params hold, it stays on the base URL's origin and
 * under its path. The query goes into the text the URL is parsed from, encoded as
 * url.searchParams.append encodes it (appending makes the URL serialize and parse itself again
 * when its query is next read, once per call); a manifest path holding its own query or fragment
 * takes that way still.
 */
function requestUrl(compiled: CompiledRequest, context: TemplateContext, baseUrl: string): URL {
  const { origin, basePath } = baseOf(baseUrl);
  const path = compiled.path.render(context);
  const inline = !path.includes('?') && !path.includes('#');
  let query = '';
  if (inline) {
    for (const [name, template] of compiled.query) {
      const text = queryText(template.value(context));
      if (text !== undefined) query += `${query === '' ? '?' : '&'}${formEncoded(name)}=${formEncoded(text)}`;
    }
  }
  const url = new URL(origin + basePath + path + query);
  if (url.origin !== origin || !url.pathname.startsWith(basePath + '/')) {
    throw new InvalidParamsError('params would move the request off the upstream API', {
      details: [{ path: '/', message: 'path params must stay inside their segment' }],
    });
  }
  if (!inline) {
    for (const [name, template] of compiled.query) {
      const text = queryText(template.value(context));
      if (text !== undefined) url.searchParams.append(name, text);
    }
  }
  return url;
}

/**
 * Renders the request of one call. The URL is checked after rendering as well: whatever the
 * params hold, the request stays on the base URL's origin and under its path.
 */
export function renderRequest(
  compiled: CompiledRequest,
  context: TemplateContext,
  baseUrl: string,
): Omit<OutgoingRequest, 'headers'> & { headers: Record<string, string> } {
  if (compiled.requiredConfig.length > 0) checkRequiredConfig(compiled, context);
  const url = requestUrl(compiled, context, baseUrl);
  const headers: Record<string, string> = {};
  for (const [name, template] of compiled.headers) {
    const text = queryText(template.value(context));
    if (text !== undefined) headers[name] = headerSafe(name, text);
  }
  const request: Omit<OutgoingRequest, 'headers'> & { headers: Record<string, string> } = {
    method: compiled.method,
    url,
    headers,
    readOnly: compiled.readOnly,
    ...(compiled.emptyOn ? { emptyOn: compiled.emptyOn } : {}),
  };
  if (compiled.body !== undefined) {
    const value = evaluateTree(compiled.body, context);
    if (compiled.bodyFormat === 'form') {
      request.body = new URLSearchParams(
        Object.entries((value ?? {}) as Record<string, unknown>).flatMap(([k, v]) => {
          const text = queryText(v);
          return text === undefined ? [] : [[k, text] as [string, string]];
        }),
      ).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else {
      request.body = compiled.bodyIsText && typeof value === 'string' ? value : JSON.stringify(value ?? {});
      headers['content-type'] ??= 'application/json';
    }
  }
  return request;
}
