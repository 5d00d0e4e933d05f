import type { LinkHeaderPagination } from '../../manifest/index.js';
import { withToken } from './param-schema.js';
import type { PagingStrategy } from './types.js';

/** Parses RFC 8288 Link headers into rel -> URL. */
export function parseLinkHeader(header: string | string[] | undefined): Map<string, string> {
  const links = new Map<string, string>();
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const match of text.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel="?([^";]+)"?/i.exec(match[2] ?? '');
    for (const name of rel?.[1]?.split(/\s+/) ?? []) links.set(name.toLowerCase(), match[1] as string);
  }
  return links;
}

/**
 * `link_header`: the Link header names the next page; its token (a query param of that URL) goes
 * back in a param, with only `keep_params` beside it, since the token carries the first request's
 * filters (an upstream may refuse others beside the token, API-NOTES B.3).
 */
export const linkHeaderPaging: PagingStrategy<LinkHeaderPagination> = {
  readPage(spec, { answer, records }) {
    const link = parseLinkHeader(answer.headers.link).get((spec.rel ?? 'next').toLowerCase());
    const token = link ? (new URL(link, 'http://link.invalid').searchParams.get(spec.query_param) ?? undefined) : undefined;
    return { records, token: token === '' ? undefined : token, hasMore: token !== undefined && token !== '' };
  },
  nextParams(spec, current, token) {
    const keep = spec.keep_params;
    const base = keep ? Object.fromEntries(Object.entries(current).filter(([name]) => keep.includes(name))) : current;
    return withToken(base, spec.param, token);
  },
  describe: (spec) => ({ pagination_param: spec.param, pagination_keep_params: spec.keep_params ?? null }),
};
