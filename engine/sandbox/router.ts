/**
 * A tiny method + path-pattern router for the fakes (no framework, DESIGN.md §8 fakes use node:http).
 */

/**
 * Which switchboard a route belongs to: `api` routes get the fault switches; `auth` routes
 * (OAuth token endpoints) and `consent` routes (OAuth authorize pages) only when a fault is armed
 * with `includeAuth`.
 */
export type RouteKind = 'api' | 'auth' | 'consent';

interface CompiledRoute<H> {
  method: string;
  pattern: string;
  kind: RouteKind;
  handler: H;
  /** A literal segment, or a `:name` parameter. */
  segments: Array<{ literal: string } | { param: string }>;
}

/** A route found for a request. */
export interface RouteMatch<H> {
  handler: H;
  kind: RouteKind;
  pattern: string;
  params: Record<string, string>;
}

/** Result of looking a request up: a match, a path known under other methods (405), or nothing (404). */
export type RouteLookup<H> = { found: true; match: RouteMatch<H> } | { found: false; allowedMethods: string[] };

function splitPath(path: string): string[] {
  return path.split('/').slice(1);
}

/** Routes requests by method and `/literal/:param` patterns; literal segments beat parameters. */
export class Router<H> {
  private readonly routes: Array<CompiledRoute<H>> = [];

  /**
   * Registers a handler.
   * Why: each fake declares its upstream's routes in one readable table.
   */
  add(method: string, pattern: string, handler: H, kind: RouteKind = 'api'): void {
    if (!pattern.startsWith('/')) throw new Error(`route pattern must start with "/": ${pattern}`);
    const segments = splitPath(pattern).map((segment) => (segment.startsWith(':') ? { param: segment.slice(1) } : { literal: segment }));
    this.routes.push({ method: method.toUpperCase(), pattern, kind, handler, segments });
  }

  /**
   * Finds the route for a request path (already stripped of its query string).
   * Why: when several patterns match (`/objects/:type/search` vs `/objects/:type/:id`), the one
   * whose first differing segment is literal wins, as in the upstream APIs; a path that exists
   * only under other methods yields the allowed methods for a 405.
   */
  lookup(method: string, path: string): RouteLookup<H> {
    const wanted = method.toUpperCase();
    const parts = splitPath(path);
    let best: { route: CompiledRoute<H>; params: Record<string, string>; score: number[] } | undefined;
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      allowed.add(route.method);
      if (route.method !== wanted) continue;
      const score = route.segments.map((segment) => ('literal' in segment ? 1 : 0));
      if (!best || compareScores(score, best.score) > 0) best = { route, params, score };
    }
    if (best) {
      return {
        found: true,
        match: { handler: best.route.handler, kind: best.route.kind, pattern: best.route.pattern, params: best.params },
      };
    }
    return { found: false, allowedMethods: [...allowed].sort() };
  }
}

function matchSegments(segments: Array<{ literal: string } | { param: string }>, parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i]!;
    const part = parts[i]!;
    if ('literal' in segment) {
      if (segment.literal !== part) return undefined;
      continue;
    }
    if (part.length === 0) return undefined;
    try {
      params[segment.param] = decodeURIComponent(part);
    } catch {
      return undefined;
    }
  }
  return params;
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  }
  return 0;
}
