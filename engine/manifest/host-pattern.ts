/**
 * Host names as manifests list them: an exact name (`api.example.com`) or `*.suffix`
 * (`*.example.com`), where `*` stands for exactly one DNS label, so `*.api.example.com` admits
 * `acme.api.example.com` but neither `api.example.com` nor `a.b.api.example.com`.
 */

const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/**
 * True when `host` (as `URL.hostname` gives it: lower case, no trailing port) is what `pattern`
 * names. Why exact and one-label wildcards only: a regular expression or a suffix match is easy
 * to get wrong in a way that admits `api.example.com.evil.test`.
 */
export function hostMatches(host: string, pattern: string): boolean {
  const name = host.toLowerCase();
  if (!pattern.startsWith('*.')) return name === pattern.toLowerCase();
  const suffix = pattern.slice(1).toLowerCase();
  if (!name.endsWith(suffix)) return false;
  return LABEL.test(name.slice(0, name.length - suffix.length));
}

/** True when any entry of the list names `host`. */
export function hostAllowed(host: string, patterns: readonly string[] | undefined): boolean {
  return (patterns ?? []).some((pattern) => hostMatches(host, pattern));
}
