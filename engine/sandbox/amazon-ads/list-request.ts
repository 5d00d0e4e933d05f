/**
 * Reading and validating the bodies of the v3 list operations (API-NOTES A.4, A.5; request
 * schemas `SponsoredProductsListSponsoredProductsCampaignsRequestContent` and
 * `ListPortfoliosRequestContent`). Every field is optional; fields the operation does not know
 * (e.g. `maxResults` on portfolios, `startIndex`) are ignored.
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import { invalidArgument, type V3Problem } from './errors.js';
import { CAMPAIGN_STATES } from './model.js';

/** Which list a body is for. */
export type ListFlavor = 'campaigns' | 'portfolios';

/** A.5: name filters match exactly or by substring. */
export type MatchType = 'BROAD_MATCH' | 'EXACT_MATCH';

/** A validated list request. Filters are absent when not given. */
export interface ListQuery {
  states?: string[];
  /** `campaignIdFilter` (campaigns) or `portfolioIdFilter` (portfolios). */
  ids?: string[];
  /** Campaigns only: `portfolioIdFilter`. */
  portfolioIds?: string[];
  names?: { values: string[]; match: MatchType };
  /** Page size: campaigns `maxResults` (default 100), portfolios always 100. */
  pageSize: number;
  nextToken?: string;
  extended: boolean;
}

/** A.5: "Defaults to max page size for given API"; the fake's max page is 100. */
export const DEFAULT_PAGE_SIZE = 100;
/** The largest `maxResults` the fake accepts on campaigns. */
export const MAX_RESULTS_LIMIT = 5000;

interface FilterRule {
  field: string;
  /** Campaigns' id filters require `include` (spec `required: ["include"]`). */
  includeRequired: boolean;
  minItems: number;
  maxItems: number;
  allowed?: readonly string[];
}

const RULES: Record<ListFlavor, { state: FilterRule; ids: FilterRule; portfolioIds?: FilterRule; names: FilterRule }> = {
  campaigns: {
    // Spec: "To filter live entities, only 'ENABLED', 'PAUSED' and 'ARCHIVED' can be used" (uppercase).
    state: { field: 'stateFilter', includeRequired: true, minItems: 0, maxItems: 10, allowed: CAMPAIGN_STATES },
    ids: { field: 'campaignIdFilter', includeRequired: true, minItems: 0, maxItems: 1000 },
    portfolioIds: { field: 'portfolioIdFilter', includeRequired: true, minItems: 0, maxItems: 100 },
    names: { field: 'nameFilter', includeRequired: false, minItems: 0, maxItems: 100 },
  },
  portfolios: {
    // Portfolios 3.0: `EntityStateFilter.include` has 1 item from `EntityState` = ["ENABLED"].
    state: { field: 'stateFilter', includeRequired: false, minItems: 1, maxItems: 1, allowed: ['ENABLED'] },
    ids: { field: 'portfolioIdFilter', includeRequired: false, minItems: 1, maxItems: 1000 },
    names: { field: 'nameFilter', includeRequired: false, minItems: 1, maxItems: 1000 },
  },
};

/**
 * Validates a list body and returns the query, or the v3 400 listing every problem.
 * Accepted leniencies: `includeExtendedDataFields` as the strings "true"/"false" (A.4: Airbyte
 * sends `"true"` and the API accepts it) and `maxResults` as a string of digits; `null` and a
 * blank `nextToken` count as absent; an empty `include` on campaigns (minItems 0) filters nothing.
 * Why: wrong filters (e.g. lowercase states) must fail loudly as upstream, not return everything.
 */
export function parseListBody(req: FakeRequest, flavor: ListFlavor): { ok: true; query: ListQuery } | { ok: false; response: FakeResponse } {
  if (req.bodyParseError !== undefined) {
    return fail([
      { errorType: 'malformedValueError', reason: 'PATTERN_NOT_MATCHED', message: `The request body is not valid JSON: ${req.bodyParseError}`, location: '$' },
    ]);
  }
  const body = req.body === undefined ? {} : req.body;
  if (!isObject(body)) {
    return fail([{ errorType: 'malformedValueError', reason: 'PATTERN_NOT_MATCHED', message: 'The request body must be a JSON object', location: '$' }]);
  }
  const problems: V3Problem[] = [];
  const rules = RULES[flavor];
  const query: ListQuery = { pageSize: DEFAULT_PAGE_SIZE, extended: false };

  const states = readFilter(body, rules.state, problems);
  if (states) query.states = states;
  const ids = readFilter(body, rules.ids, problems);
  if (ids) query.ids = ids;
  if (rules.portfolioIds) {
    const portfolioIds = readFilter(body, rules.portfolioIds, problems);
    if (portfolioIds) query.portfolioIds = portfolioIds;
  }
  const names = readFilter(body, rules.names, problems);
  const matchType = readMatchType(body, problems);
  if (names) query.names = { values: names, match: matchType };

  const extended = readBoolean(body, 'includeExtendedDataFields', problems);
  if (extended !== undefined) query.extended = extended;

  if (flavor === 'campaigns') {
    const maxResults = readMaxResults(body, problems);
    if (maxResults !== undefined) query.pageSize = maxResults;
  }

  const token = body['nextToken'];
  if (typeof token === 'string') {
    if (token.trim() !== '') query.nextToken = token.trim();
  } else if (token !== undefined && token !== null) {
    problems.push({
      errorType: 'malformedValueError',
      reason: 'PATTERN_NOT_MATCHED',
      message: 'nextToken must be a string',
      location: '$.nextToken',
      trigger: String(token),
    });
  }
  return problems.length > 0 ? fail(problems) : { ok: true, query };
}

/**
 * The v3 400 for a `nextToken` the fake did not issue for this list, profile and filters:
 * `invalidInputError` INVALID_TOKEN on campaigns (spec reason), `malformedValueError` on
 * portfolios (whose error selector has no invalidInputError).
 */
export function invalidNextToken(flavor: ListFlavor, token: string): FakeResponse {
  const message = 'Invalid nextToken: it was not issued for this request (same profile and filters) or has been altered';
  return invalidArgument([
    flavor === 'campaigns'
      ? { errorType: 'invalidInputError', reason: 'INVALID_TOKEN', message, location: '$.nextToken', trigger: token }
      : { errorType: 'malformedValueError', reason: 'PATTERN_NOT_MATCHED', message, location: '$.nextToken', trigger: token },
  ]);
}

function fail(problems: V3Problem[]): { ok: false; response: FakeResponse } {
  return { ok: false, response: invalidArgument(problems) };
}

function readFilter(body: Record<string, unknown>, rule: FilterRule, problems: V3Problem[]): string[] | undefined {
  const filter = body[rule.field];
  const at = `$.${rule.field}`;
  if (filter === undefined || filter === null) return undefined;
  if (!isObject(filter)) {
    problems.push({
      errorType: 'malformedValueError',
      reason: 'PATTERN_NOT_MATCHED',
      message: `${rule.field} must be an object with an include array`,
      location: at,
    });
    return undefined;
  }
  const include = filter['include'];
  if (include === undefined || include === null) {
    if (rule.includeRequired)
      problems.push({ errorType: 'missingValueError', reason: 'MISSING_VALUE', message: `${rule.field}.include is required`, location: `${at}.include` });
    return undefined;
  }
  if (!Array.isArray(include) || include.some((item) => typeof item !== 'string')) {
    problems.push({
      errorType: 'malformedValueError',
      reason: 'PATTERN_NOT_MATCHED',
      message: `${rule.field}.include must be an array of strings`,
      location: `${at}.include`,
      trigger: typeof include === 'string' ? include : JSON.stringify(include),
    });
    return undefined;
  }
  const values = include as string[];
  if (values.length < rule.minItems) {
    problems.push({
      errorType: 'rangeError',
      reason: 'TOO_LOW',
      message: `${rule.field}.include needs at least ${rule.minItems} item(s)`,
      location: `${at}.include`,
      lowerLimit: String(rule.minItems),
    });
    return undefined;
  }
  if (values.length > rule.maxItems) {
    problems.push({
      errorType: 'rangeError',
      reason: 'TOO_HIGH',
      message: `${rule.field}.include allows at most ${rule.maxItems} item(s), got ${values.length}`,
      location: `${at}.include`,
      upperLimit: String(rule.maxItems),
    });
    return undefined;
  }
  if (rule.allowed) {
    const allowed = rule.allowed;
    values.forEach((value, index) => {
      if (!allowed.includes(value)) {
        problems.push({
          errorType: 'rangeError',
          reason: 'INVALID_ENUM_VALUE',
          message: `Invalid value '${value}' for ${rule.field}.include[${index}]; allowed values: ${allowed.join(', ')}`,
          location: `${at}.include[${index}]`,
          trigger: value,
          allowed: [...allowed],
        });
      }
    });
  }
  return values.length > 0 ? values : undefined;
}

function readMatchType(body: Record<string, unknown>, problems: V3Problem[]): MatchType {
  const filter = body['nameFilter'];
  const value = isObject(filter) ? filter['queryTermMatchType'] : undefined;
  if (value === undefined || value === null) return 'EXACT_MATCH';
  if (value === 'BROAD_MATCH' || value === 'EXACT_MATCH') return value;
  problems.push({
    errorType: 'rangeError',
    reason: 'INVALID_ENUM_VALUE',
    message: `Invalid value '${String(value)}' for nameFilter.queryTermMatchType; allowed values: BROAD_MATCH, EXACT_MATCH`,
    location: '$.nameFilter.queryTermMatchType',
    trigger: String(value),
    allowed: ['BROAD_MATCH', 'EXACT_MATCH'],
  });
  return 'EXACT_MATCH';
}

function readBoolean(body: Record<string, unknown>, field: string, problems: V3Problem[]): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  problems.push({
    errorType: 'malformedValueError',
    reason: 'PATTERN_NOT_MATCHED',
    message: `${field} must be a boolean`,
    location: `$.${field}`,
    trigger: String(value),
  });
  return undefined;
}

function readMaxResults(body: Record<string, unknown>, problems: V3Problem[]): number | undefined {
  const value = body['maxResults'];
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(number)) {
    problems.push({
      errorType: 'malformedValueError',
      reason: 'PATTERN_NOT_MATCHED',
      message: 'maxResults must be an integer',
      location: '$.maxResults',
      trigger: String(value),
    });
    return undefined;
  }
  if (number < 1 || number > MAX_RESULTS_LIMIT) {
    problems.push({
      errorType: 'rangeError',
      reason: number < 1 ? 'TOO_LOW' : 'TOO_HIGH',
      message: `maxResults must be between 1 and ${MAX_RESULTS_LIMIT}, got ${number}`,
      location: '$.maxResults',
      trigger: String(value),
      lowerLimit: '1',
      upperLimit: String(MAX_RESULTS_LIMIT),
    });
    return undefined;
  }
  return number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
