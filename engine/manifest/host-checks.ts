import { hostAllowed } from './host-pattern.js';
import type { HostLists, HostPurpose, Manifest } from './types.js';

type PathPart = string | number;

/** One problem of the host lists, located by its path in the manifest data. */
export interface HostProblem {
  path: PathPart[];
  message: string;
}

/**
 * The URLs a template spells out: the whole template when it has no `{{`, else the quoted URLs
 * inside it (a `map` helper's choices) and a literal `scheme://host/` before the first `{{`.
 */
export function literalUrls(template: string): string[] {
  if (!template.includes('{{')) return [template];
  const quoted = [...template.matchAll(/['"]([a-z][a-z0-9+.-]*:\/\/[^'"{}\s]+)['"]/gi)].map((match) => match[1] as string);
  const head = /^([a-z][a-z0-9+.-]*:\/\/[^/{}]+)\//i.exec(template.slice(0, template.indexOf('{{')));
  return head ? [...quoted, head[1] as string] : quoted;
}

/** Checks every URL a template spells out against the list of its purpose: https, and a listed host. */
function literalHosts(template: string, purpose: HostPurpose, hosts: HostLists, path: PathPart[]): HostProblem[] {
  const problems: HostProblem[] = [];
  for (const text of literalUrls(template)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      problems.push({ path, message: `"${text}" is not an absolute URL` });
      continue;
    }
    if (url.protocol !== 'https:') problems.push({ path, message: `"${text}" must be https: outbound requests are https only` });
    if (!hostAllowed(url.hostname, hosts[purpose])) problems.push({ path, message: `host "${url.hostname}" is not in hosts.${purpose}` });
  }
  return problems;
}

function downloads(manifest: Manifest): PathPart[][] {
  return Object.entries(manifest.entities).flatMap(([entity, spec]) =>
    Object.entries(spec.actions)
      .filter(([, action]) => action.file)
      .map(([name]) => ['entities', entity, 'actions', name, 'file']),
  );
}

/**
 * What can be checked of a manifest's `hosts` before any request: literal base and token URLs are
 * https on a listed host, each kind of request the manifest makes has its list, and no list is
 * declared for requests it never makes (an unused list only widens where requests could go).
 */
export function checkHosts(manifest: Manifest): HostProblem[] {
  const hosts = manifest.hosts;
  // A manifest without hosts fails the schema, which says so.
  if (!hosts || typeof hosts !== 'object') return [];
  const problems = literalHosts(manifest.base_url, 'api', hosts, ['base_url']);
  const used = new Set<HostPurpose>(['api']);
  manifest.auth.forEach((scheme, index) => {
    if (scheme.oauth2) {
      used.add('token');
      if (!hosts.token) problems.push({ path: ['auth', index, 'oauth2', 'token_url'], message: 'a scheme that refreshes tokens needs hosts.token' });
      else problems.push(...literalHosts(scheme.oauth2.token_url, 'token', hosts, ['auth', index, 'oauth2', 'token_url']));
    }
    if (scheme.base_url_from) {
      used.add('account');
      if (!hosts.account)
        problems.push({ path: ['auth', index, 'base_url_from'], message: 'base_url_from needs hosts.account (the hosts an account URL may name)' });
    }
  });
  for (const path of downloads(manifest)) {
    used.add('files');
    if (!hosts.files) problems.push({ path, message: 'a download action needs hosts.files (the hosts its file URLs may point at)' });
  }
  for (const purpose of Object.keys(hosts) as HostPurpose[]) {
    if (!used.has(purpose))
      problems.push({ path: ['hosts', purpose], message: `hosts.${purpose} is declared, but no request of this manifest is for ${purpose}` });
  }
  return problems;
}
