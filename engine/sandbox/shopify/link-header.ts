/**
 * The `Link` response header of paged REST lists (API-NOTES B.3).
 */
import type { FakeRequest } from '../fake-server.js';

/** The cursors of the neighbouring pages, when there are any. */
export interface PageLinks {
  previous?: string;
  next?: string;
}

/**
 * `<…?page_info=…&limit=N>; rel="previous", <…?page_info=…&limit=N>; rel="next"`, or undefined when
 * there is neither (B.3: "If your initial request doesn't return enough records to generate an
 * additional page … the response won't have a link header"). URLs point at this fake (the stand-in
 * for `https://{shop}.myshopify.com`) on the path the client used; `fields` is carried along when given.
 * Why: clients follow these links or pull `page_info` out of them (B.3: the Ruby client parses both rels).
 */
export function linkHeader(req: FakeRequest, limit: number, fields: string | undefined, links: PageLinks): string | undefined {
  const parts: string[] = [];
  const url = (cursor: string): string => {
    const query = `page_info=${cursor}&limit=${limit}${fields !== undefined ? `&fields=${encodeURIComponent(fields)}` : ''}`;
    return `${req.baseUrl}${req.path}?${query}`;
  };
  if (links.previous !== undefined) parts.push(`<${url(links.previous)}>; rel="previous"`);
  if (links.next !== undefined) parts.push(`<${url(links.next)}>; rel="next"`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}
