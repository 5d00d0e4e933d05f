/**
 * Checks recorded HTTP exchanges against an upstream's OpenAPI 3.0/3.1 document (DESIGN.md §9:
 * "Conformance tests check rendered requests and fake responses against upstream-specs/").
 * Works for any document: HubSpot JSON, Asana/Amazon Ads YAML, Gong JSON.
 */
import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenAPIV3, OpenAPIV3_1 } from 'openapi-types';
import { parse as parseYaml } from 'yaml';

/** An OpenAPI 3.0 or 3.1 document. */
export type OpenApiDocument = OpenAPIV3.Document | OpenAPIV3_1.Document;

type Operation = OpenAPIV3.OperationObject | OpenAPIV3_1.OperationObject;
type PathItem = OpenAPIV3.PathItemObject | OpenAPIV3_1.PathItemObject;
type Parameter = OpenAPIV3.ParameterObject | OpenAPIV3_1.ParameterObject;

/**
 * The exchange shape the checker reads: the sandbox's `RecordedRequest` fits it, and so does a
 * request captured from the engine.
 */
export interface RecordedExchange {
  method: string;
  /** Path without the query string (a query string, if present, is ignored). */
  path: string;
  query?: Record<string, string | string[]>;
  headers?: Record<string, string | string[] | undefined>;
  /** The request body: parsed value, or raw text; undefined or '' when there is none. */
  body?: unknown;
  response?: {
    /** 0 means no response was sent (connection reset). */
    status: number;
    headers?: Record<string, string | string[] | undefined>;
    /** Parsed JSON, or raw text ('' when empty). */
    body?: unknown;
  };
}

/** The operation a method and path resolve to. */
export interface OperationMatch {
  /** The document's path template, e.g. `/crm/v3/objects/{objectType}`. */
  pathTemplate: string;
  /** Lower-case method key of the path item. */
  method: string;
  operation: Operation;
  pathItem: PathItem;
  /** Path parameters, percent-decoded. */
  params: Record<string, string>;
}

/** Options of {@link checkRequest}. */
export interface CheckRequestOptions {
  /** Extra header names (any case) to accept although the operation does not declare them. */
  ignoreHeaders?: string[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * Headers every HTTP client or transport adds, never declared as OpenAPI parameters. OpenAPI also
 * says parameters named Accept, Content-Type and Authorization are ignored (auth belongs to
 * security schemes).
 */
const TRANSPORT_HEADERS = new Set([
  'accept',
  'accept-charset',
  'accept-encoding',
  'accept-language',
  'authorization',
  'cache-control',
  'connection',
  'content-encoding',
  'content-length',
  'content-type',
  'cookie',
  'date',
  'expect',
  'host',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-range',
  'if-unmodified-since',
  'keep-alive',
  'origin',
  'pragma',
  'proxy-authorization',
  'range',
  'referer',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'user-agent',
  'via',
  'sec-fetch-mode',
  'sec-fetch-site',
  'sec-fetch-dest',
  'sec-fetch-user',
]);

const DOC_ID = 'openapi-document';
const documentCache = new Map<string, OpenApiDocument>();

/**
 * Reads an OpenAPI 3.x document from a .json, .yaml or .yml file (memoised per absolute path).
 * Why: upstream-specs/ holds both formats and several test files read the same large documents.
 */
export function loadOpenApi(file: string): OpenApiDocument {
  const path = resolvePath(file);
  const cached = documentCache.get(path);
  if (cached) return cached;
  const text = readFileSync(path, 'utf8');
  const parsed: unknown = /\.ya?ml$/i.test(path) ? parseYaml(text, { maxAliasCount: -1 }) : JSON.parse(text);
  if (!isObject(parsed) || typeof parsed['openapi'] !== 'string' || !parsed['openapi'].startsWith('3.')) {
    throw new Error(`${file} is not an OpenAPI 3.x document`);
  }
  if (!isObject(parsed['paths'])) throw new Error(`${file} has no paths`);
  const doc = parsed as unknown as OpenApiDocument;
  documentCache.set(path, doc);
  return doc;
}

/**
 * Finds the operation for a method and concrete path: the path is matched against every path
 * template (also after removing a server URL's base path, e.g. Asana's `/api/1.0`); when several
 * templates match, the one whose first differing segment is literal wins (`/tasks/search` beats
 * `/tasks/{id}`). Returns null when no template serves the method.
 * Why: both checks first need the operation a request addresses.
 */
export function matchOperation(doc: OpenApiDocument, method: string, path: string): OperationMatch | null {
  const wanted = method.toLowerCase();
  const best = matchingPaths(doc, path).find((candidate) => isObject(candidate.pathItem[wanted as keyof PathItem]));
  if (!best) return null;
  return {
    pathTemplate: best.template,
    method: wanted,
    operation: best.pathItem[wanted as (typeof HTTP_METHODS)[number]] as Operation,
    pathItem: best.pathItem,
    params: best.params,
  };
}

/**
 * Lists what is wrong with a request for the document: unknown path or method; query or header
 * parameters the operation does not declare (transport headers, security-scheme API keys and
 * `options.ignoreHeaders` excepted); missing required parameters; parameter values that do not
 * fit a scalar type, an enum or a date/date-time format; a body where none is declared, a missing
 * required body, or a body media type not among the declared ones. An empty list means conformant.
 * Why: catches manifests that render requests the upstream does not accept.
 */
export function checkRequest(doc: OpenApiDocument, recorded: RecordedExchange, options: CheckRequestOptions = {}): string[] {
  const label = `${recorded.method.toUpperCase()} ${recorded.path}`;
  const located = locate(doc, recorded.method, recorded.path);
  if ('problem' in located) return [`${label}: ${located.problem}`];
  const { match } = located;
  const problems: string[] = [];
  const parameters = operationParameters(doc, match);

  const query = recorded.query ?? {};
  const queryParams = new Map(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]));
  const apiKeys = securityApiKeys(doc, match.operation);
  for (const [name, value] of Object.entries(query)) {
    const declared = queryParams.get(name);
    if (!declared) {
      if (!apiKeys.query.has(name)) problems.push(`${label}: query parameter "${name}" is not declared by the operation`);
      continue;
    }
    problems.push(...checkParameterValue(doc, label, declared, Array.isArray(value) ? value : [value]));
  }

  const headers = lowerCaseKeys(recorded.headers ?? {});
  const headerParams = new Map(parameters.filter((p) => p.in === 'header').map((p) => [p.name.toLowerCase(), p]));
  const ignored = new Set((options.ignoreHeaders ?? []).map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const declared = headerParams.get(name);
    if (declared) {
      problems.push(...checkParameterValue(doc, label, declared, Array.isArray(value) ? value : [value]));
      continue;
    }
    if (TRANSPORT_HEADERS.has(name) || apiKeys.header.has(name) || ignored.has(name)) continue;
    problems.push(`${label}: header "${name}" is not declared by the operation`);
  }

  for (const parameter of parameters) {
    if (!parameter.required) continue;
    if (parameter.in === 'query' && query[parameter.name] === undefined) {
      problems.push(`${label}: required query parameter "${parameter.name}" is missing`);
    }
    if (parameter.in === 'header' && headers[parameter.name.toLowerCase()] === undefined) {
      problems.push(`${label}: required header "${parameter.name}" is missing`);
    }
    if (parameter.in === 'path') {
      const value = match.params[parameter.name];
      if (value === undefined) problems.push(`${label}: path parameter "${parameter.name}" is not in the path template`);
      else problems.push(...checkParameterValue(doc, label, parameter, [value]));
    }
  }

  const hasBody = recorded.body !== undefined && recorded.body !== null && recorded.body !== '';
  const requestBody = match.operation.requestBody ? (resolveRef(doc, match.operation.requestBody, '').value as OpenAPIV3.RequestBodyObject) : undefined;
  if (hasBody && !requestBody) problems.push(`${label}: a request body was sent but the operation declares none`);
  if (!hasBody && requestBody?.required) problems.push(`${label}: the operation requires a request body`);
  if (hasBody && requestBody) {
    const declared = Object.keys(requestBody.content ?? {});
    const contentType = firstHeader(headers['content-type']);
    if (!contentType) problems.push(`${label}: the request body has no Content-Type (declared: ${declared.join(', ')})`);
    else if (!pickMediaType(declared, contentType)) {
      problems.push(`${label}: request media type "${mediaTypeOf(contentType)}" is not declared (declared: ${declared.join(', ')})`);
    }
  }
  return problems;
}

/**
 * Lists what is wrong with a recorded response: no response, a status the operation does not
 * declare (exact, `4XX`-style range, or `default`), a Content-Type not declared for that status,
 * an empty body where content is declared (unless `*\/*` allows anything), or a JSON body that does
 * not validate against the declared schema. Schemas are read with `$ref`s into the document,
 * OpenAPI 3.0 `nullable` turned into JSON Schema, and `example`/`x-*` ignored (ajv, strict off,
 * all errors). An empty list means conformant.
 * Why: DESIGN.md §8: the fakes' responses must validate against upstream-specs/.
 */
export function checkResponse(doc: OpenApiDocument, recorded: RecordedExchange): string[] {
  const label = `${recorded.method.toUpperCase()} ${recorded.path}`;
  const response = recorded.response;
  if (!response) return [`${label}: no response was recorded`];
  if (response.status === 0) return [`${label}: no response was sent (connection reset)`];
  const located = locate(doc, recorded.method, recorded.path);
  if ('problem' in located) return [`${label}: ${located.problem}`];
  const { match } = located;
  const statusKey = pickStatus(Object.keys(match.operation.responses ?? {}), response.status);
  if (!statusKey) {
    return [`${label}: status ${response.status} is not declared (declared: ${Object.keys(match.operation.responses ?? {}).join(', ')})`];
  }
  const basePointer = pointer(['paths', match.pathTemplate, match.method, 'responses', statusKey]);
  const resolved = resolveRef(doc, (match.operation.responses as Record<string, unknown>)[statusKey], basePointer);
  const declaredResponse = resolved.value as OpenAPIV3.ResponseObject;
  const content = declaredResponse.content ?? {};
  const declared = Object.keys(content);
  const body = response.body;
  const empty = body === undefined || body === null || body === '';
  const where = `${label}: response ${response.status}`;
  if (declared.length === 0) return empty ? [] : [`${where} has a body but the operation declares no content for it`];
  const contentType = firstHeader(lowerCaseKeys(response.headers ?? {})['content-type']);
  if (empty) return declared.includes('*/*') ? [] : [`${where} has an empty body (declared: ${declared.join(', ')})`];
  const mediaKey = contentType ? pickMediaType(declared, contentType) : declared.includes('*/*') ? '*/*' : undefined;
  if (!mediaKey) return [`${where}: content type "${contentType ?? '(none)'}" is not declared (declared: ${declared.join(', ')})`];
  const media = content[mediaKey];
  if (!media?.schema) return [];
  let value: unknown = body;
  if (typeof body === 'string') {
    const jsonish = isJsonMediaType(contentType) || isJsonMediaType(mediaKey);
    try {
      value = JSON.parse(body) as unknown;
    } catch {
      // A non-JSON body is fine where the declared media type is not JSON (e.g. `*/*`, text/html).
      return jsonish && isJsonMediaType(mediaKey) ? [`${where}: the body is not valid JSON`] : [];
    }
  }
  const validate = validatorAt(doc, pointer([...splitPointer(resolved.pointer), 'content', mediaKey, 'schema']));
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${where} body${error.instancePath || ''} ${describeError(error)}`);
}

/* ------------------------------------------------------------------ path matching */

interface PathCandidate {
  template: string;
  pathItem: PathItem;
  params: Record<string, string>;
  score: number[];
}

function locate(doc: OpenApiDocument, method: string, path: string): { match: OperationMatch } | { problem: string } {
  const match = matchOperation(doc, method, path);
  if (match) return { match };
  const candidates = matchingPaths(doc, path);
  if (candidates.length === 0) return { problem: 'no path of the document matches' };
  const declared = candidates.flatMap((candidate) => HTTP_METHODS.filter((m) => isObject(candidate.pathItem[m])).map((m) => m.toUpperCase()));
  return { problem: `method ${method.toUpperCase()} is not declared for ${candidates[0]!.template} (declared: ${[...new Set(declared)].join(', ')})` };
}

/** Templates matching `path`, best first (literal segments beat parameters, left to right). */
function matchingPaths(doc: OpenApiDocument, rawPath: string): PathCandidate[] {
  const path = rawPath.split(/[?#]/)[0] ?? rawPath;
  const variants = [
    path,
    ...serverBasePaths(doc)
      .filter((base) => path.startsWith(`${base}/`))
      .map((base) => path.slice(base.length)),
  ];
  const out: PathCandidate[] = [];
  for (const variant of variants) {
    const parts = variant.split('/');
    for (const [template, pathItem] of Object.entries(doc.paths ?? {})) {
      if (!pathItem) continue;
      const params = matchTemplate(template, parts);
      if (params) out.push({ template, pathItem: resolveRef(doc, pathItem, '').value as PathItem, params: params.values, score: params.score });
    }
  }
  return out.sort((a, b) => compareScores(b.score, a.score));
}

function matchTemplate(template: string, parts: string[]): { values: Record<string, string>; score: number[] } | undefined {
  const segments = template.split('/');
  if (segments.length !== parts.length) return undefined;
  const values: Record<string, string> = {};
  const score: number[] = [];
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i]!;
    const part = parts[i]!;
    const names: string[] = [];
    const source = segment.replace(/\{([^}]+)\}|[^{]+/g, (token, name: string | undefined) => {
      if (name !== undefined) {
        names.push(name);
        return '([^/]+)';
      }
      return token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    });
    if (names.length === 0) {
      if (segment !== part) return undefined;
      score.push(2);
      continue;
    }
    const found = new RegExp(`^${source}$`).exec(part);
    if (!found) return undefined;
    names.forEach((name, index) => {
      const raw = found[index + 1] ?? '';
      try {
        values[name] = decodeURIComponent(raw);
      } catch {
        values[name] = raw;
      }
    });
    score.push(source === '([^/]+)' ? 0 : 1);
  }
  return { values, score };
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

/** Base paths of the document's servers (`https://app.asana.com/api/1.0` -> `/api/1.0`). */
function serverBasePaths(doc: OpenApiDocument): string[] {
  const out: string[] = [];
  for (const server of doc.servers ?? []) {
    let url = server.url;
    for (const [name, variable] of Object.entries(server.variables ?? {})) url = url.replaceAll(`{${name}}`, String(variable.default));
    let path: string;
    try {
      path = new URL(url, 'http://relative.invalid').pathname;
    } catch {
      continue;
    }
    path = path.replace(/\/+$/, '');
    if (path && path !== '/') out.push(path);
  }
  return out;
}

/* ------------------------------------------------------------------ parameters */

function operationParameters(doc: OpenApiDocument, match: OperationMatch): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const raw of [...(match.pathItem.parameters ?? []), ...(match.operation.parameters ?? [])]) {
    const parameter = resolveRef(doc, raw, '').value as Parameter;
    byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}

function securityApiKeys(doc: OpenApiDocument, operation: Operation): { query: Set<string>; header: Set<string> } {
  const out = { query: new Set<string>(), header: new Set<string>() };
  const requirements = operation.security ?? doc.security ?? [];
  const schemes = doc.components?.securitySchemes ?? {};
  for (const requirement of requirements) {
    for (const name of Object.keys(requirement)) {
      const scheme = resolveRef(doc, schemes[name], '').value as OpenAPIV3.SecuritySchemeObject | undefined;
      if (scheme?.type !== 'apiKey') continue;
      if (scheme.in === 'query') out.query.add(scheme.name);
      if (scheme.in === 'header') out.header.add(scheme.name.toLowerCase());
    }
  }
  return out;
}

/** Checks values of a parameter against a scalar type/enum, or an array of them. */
function checkParameterValue(doc: OpenApiDocument, label: string, parameter: Parameter, values: string[]): string[] {
  const schema = parameter.schema ? (resolveRef(doc, parameter.schema, '').value as OpenAPIV3.SchemaObject) : undefined;
  if (!schema) return [];
  const where = `${label}: ${parameter.in} parameter "${parameter.name}"`;
  const type = schemaType(schema);
  if (type === 'array') {
    const items = schema.type === 'array' && schema.items ? (resolveRef(doc, schema.items, '').value as OpenAPIV3.SchemaObject) : undefined;
    const explode = parameter.explode ?? (parameter.style ?? (parameter.in === 'query' ? 'form' : 'simple')) === 'form';
    const each = explode ? values : values.flatMap((value) => value.split(','));
    return items ? each.flatMap((value) => scalarProblem(where, items, value)) : [];
  }
  if (type === 'object') return [];
  if (values.length > 1) return [`${where} is given ${values.length} times but is not an array`];
  return values.flatMap((value) => scalarProblem(where, schema, value));
}

function scalarProblem(where: string, schema: OpenAPIV3.SchemaObject, value: string): string[] {
  const type = schemaType(schema);
  if (type === 'integer' && !/^-?\d+$/.test(value)) return [`${where} must be an integer, got "${value}"`];
  if (type === 'number' && (value.trim() === '' || Number.isNaN(Number(value)))) return [`${where} must be a number, got "${value}"`];
  if (type === 'boolean' && value !== 'true' && value !== 'false') return [`${where} must be true or false, got "${value}"`];
  if (Array.isArray(schema.enum) && !schema.enum.map(String).includes(value)) {
    return [`${where} must be one of ${schema.enum.map(String).join(', ')}, got "${value}"`];
  }
  if (type === 'string' && schema.format === 'date-time' && !DATE_TIME.test(value)) return [`${where} must be a date-time, got "${value}"`];
  if (type === 'string' && schema.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return [`${where} must be a date, got "${value}"`];
  return [];
}

/** RFC 3339 date-time, as JSON Schema's `date-time` format (seconds required, offset or Z required). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function schemaType(schema: OpenAPIV3.SchemaObject | OpenAPIV3_1.SchemaObject): string | undefined {
  const type = (schema as { type?: unknown }).type;
  if (Array.isArray(type)) return type.find((entry) => entry !== 'null') as string | undefined;
  return typeof type === 'string' ? type : undefined;
}

/* ------------------------------------------------------------------ media types and statuses */

function mediaTypeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = mediaTypeOf(contentType);
  return type === 'application/json' || type.endsWith('+json');
}

/** The declared media-type key that covers `contentType`: exact, then `type/*`, then `*\/*`. */
function pickMediaType(declared: string[], contentType: string): string | undefined {
  const actual = mediaTypeOf(contentType);
  const [family] = actual.split('/');
  const normalized = declared.map((key) => [key, mediaTypeOf(key)] as const);
  return (
    normalized.find(([, type]) => type === actual)?.[0] ??
    normalized.find(([, type]) => type === `${family}/*`)?.[0] ??
    normalized.find(([, type]) => type === '*/*')?.[0]
  );
}

function pickStatus(declared: string[], status: number): string | undefined {
  const exact = declared.find((key) => key === String(status));
  if (exact) return exact;
  const range = declared.find((key) => key.toUpperCase() === `${String(status)[0]}XX`);
  if (range) return range;
  return declared.find((key) => key === 'default');
}

/* ------------------------------------------------------------------ references and pointers */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointer(parts: string[]): string {
  return parts.map((part) => `/${part.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function splitPointer(value: string): string[] {
  return value
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function getPointer(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#')) throw new Error(`only local $refs are supported, got ${ref}`);
  let node: unknown = doc;
  for (const part of splitPointer(decodeURIComponent(ref.slice(1)))) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Follows `$ref`s of non-schema objects (parameters, responses, request bodies, path items). */
function resolveRef(doc: OpenApiDocument, value: unknown, at: string): { value: unknown; pointer: string } {
  let current = value;
  let where = at;
  for (let depth = 0; depth < 32 && isObject(current) && typeof current['$ref'] === 'string'; depth += 1) {
    const ref = current['$ref'];
    where = decodeURIComponent(ref.slice(1));
    current = getPointer(doc, ref);
    if (current === undefined) throw new Error(`unresolvable $ref ${ref}`);
  }
  return { value: current, pointer: where };
}

/* ------------------------------------------------------------------ JSON Schema validation */

interface DocumentValidators {
  ajv: Ajv | Ajv2020;
  compiled: Map<string, ValidateFunction>;
}

const validatorCache = new WeakMap<object, DocumentValidators>();
const addFormats = addFormatsModule.default;

function validatorAt(doc: OpenApiDocument, schemaPointer: string): ValidateFunction {
  let validators = validatorCache.get(doc);
  if (!validators) {
    const is31 = doc.openapi.startsWith('3.1');
    const options = { strict: false, allErrors: true, validateSchema: false, logger: false as const };
    const ajv = is31 ? new Ajv2020(options) : new Ajv(options);
    addFormats(ajv);
    addOpenApiFormats(ajv);
    ajv.addSchema(convertDocument(doc, !is31) as object, DOC_ID);
    validators = { ajv, compiled: new Map() };
    validatorCache.set(doc, validators);
  }
  let validate = validators.compiled.get(schemaPointer);
  if (!validate) {
    const fragment = splitPointer(schemaPointer)
      .map((part) => `/${encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'))}`)
      .join('');
    validate = validators.ajv.compile({ $ref: `${DOC_ID}#${fragment}` });
    validators.compiled.set(schemaPointer, validate);
  }
  return validate;
}

/** OpenAPI's own formats (int32, int64, float, double, byte, binary, password). */
function addOpenApiFormats(ajv: Ajv | Ajv2020): void {
  const int32 = (value: number): boolean => Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
  ajv.addFormat('int32', { type: 'number', validate: int32 });
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  ajv.addFormat('byte', { type: 'string', validate: (value: string) => /^[A-Za-z0-9+/]*={0,2}$/.test(value) });
  ajv.addFormat('binary', { type: 'string', validate: () => true });
  ajv.addFormat('password', { type: 'string', validate: () => true });
}

function describeError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return `must NOT have additional property "${String(params['additionalProperty'])}"`;
  if (error.keyword === 'enum') return `must be one of ${JSON.stringify(params['allowedValues'])}`;
  return error.message ?? error.keyword;
}

/** Keys whose value is a map of name to schema. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);
/** Keys whose value is one schema (or, for `items`, possibly an array of schemas). */
const SCHEMA_VALUES = new Set([
  'additionalProperties',
  'items',
  'additionalItems',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
]);
/** Keys whose value is an array of schemas. */
const SCHEMA_ARRAYS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Annotation-only keys dropped from schemas. */
const DROPPED = new Set(['example', 'examples', 'xml', 'externalDocs', 'discriminator']);

/**
 * Converts an OpenAPI schema to JSON Schema: drops `example`/`x-*`, turns 3.0 `nullable` into a
 * `null` type (or `anyOf [schema, null]` around compositions, including the `allOf` member idiom), 3.0 boolean `exclusiveMinimum/Maximum` into numbers, ignores 3.0 `$ref` siblings,
 * and drops Swagger-2-style boolean `required`.
 */
function convertSchema(input: unknown, openapi30: boolean): unknown {
  if (!isObject(input)) return input;
  let node = input;
  if (openapi30 && Array.isArray(node['allOf']) && node['allOf'].some((member) => isObject(member) && member['nullable'] === true)) {
    // 3.0 idiom (Asana): `allOf: [{$ref: X}, {nullable: true}]` means "X or null".
    const allOf = node['allOf'].map((member) => {
      if (!isObject(member) || member['nullable'] !== true) return member;
      const rest = { ...member };
      delete rest['nullable'];
      return rest;
    });
    node = { ...node, allOf, nullable: true };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, convertSchema(schema, openapi30)]));
    } else if (SCHEMA_VALUES.has(key)) {
      out[key] = Array.isArray(value) ? value.map((schema) => convertSchema(schema, openapi30)) : convertSchema(value, openapi30);
    } else if (SCHEMA_ARRAYS.has(key) && Array.isArray(value)) {
      out[key] = value.map((schema) => convertSchema(schema, openapi30));
    } else if (key === 'required' && !Array.isArray(value)) {
      continue;
    } else {
      out[key] = value;
    }
  }
  if (!openapi30) return out;
  const nullable = out['nullable'] === true;
  delete out['nullable'];
  if (typeof out['$ref'] === 'string') {
    const ref = { $ref: out['$ref'] };
    return nullable ? { anyOf: [ref, { type: 'null' }] } : ref;
  }
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[exclusive] === 'boolean') {
      if (out[exclusive] === true && typeof out[bound] === 'number') {
        out[exclusive] = out[bound];
        delete out[bound];
      } else {
        delete out[exclusive];
      }
    }
  }
  if (!nullable) return out;
  const composed = ['allOf', 'anyOf', 'oneOf', 'not'].some((key) => key in out);
  if (typeof out['type'] === 'string' && !composed) {
    out['type'] = [out['type'], 'null'];
    if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...out['enum'], null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

/**
 * A copy of the document in which every schema (components.schemas and every `schema` of a
 * parameter, header or media type) is converted; other parts are kept for pointer resolution.
 */
function convertDocument(doc: OpenApiDocument, openapi30: boolean): unknown {
  const walk = (node: unknown, path: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, path));
    if (!isObject(node)) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples' || key.startsWith('x-')) {
        out[key] = value;
        continue;
      }
      if (path.length === 1 && path[0] === 'components' && key === 'schemas' && isObject(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, convertSchema(schema, openapi30)]));
      } else if (key === 'schema' && isObject(value)) {
        out[key] = convertSchema(value, openapi30);
      } else {
        out[key] = walk(value, [...path, key]);
      }
    }
    return out;
  };
  return walk(doc, []);
}

/* ------------------------------------------------------------------ small helpers */

function lowerCaseKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key.toLowerCase(), value]));
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Problems of a value against one schema of the document's `components.schemas` (empty when it
 * conforms), read the same way as response bodies.
 * Why: an upstream route without a document of its own (HubSpot's properties API) answers a
 * shape another document defines (the schemas API's `Property` and `Error`).
 */
export function checkComponent(doc: OpenApiDocument, name: string, value: unknown, label: string): string[] {
  const validate = validatorAt(doc, pointer(['components', 'schemas', name]));
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${label}${error.instancePath || ''} ${describeError(error)}`);
}
