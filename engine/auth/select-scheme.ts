import { InvalidCredentialsError, type ErrorDetail } from '../errors.js';
import type { Ajv } from '../manifest/index.js';
import type { AuthScheme, Manifest } from '../manifest/index.js';

function describeScheme(scheme: AuthScheme): string {
  const required = (scheme.credentials.required as string[] | undefined) ?? [];
  return `${scheme.name} {${required.join(', ')}}`;
}

/**
 * Picks the first auth scheme whose credential schema accepts the credentials. When none does,
 * the error names every scheme with the fields it needs, because the caller usually sent the right
 * fields for a scheme with one missing or misspelt, and needs to see which.
 */
export function selectScheme(manifest: Manifest, credentials: unknown, ajv: Ajv): AuthScheme {
  const details: ErrorDetail[] = [];
  for (const scheme of manifest.auth) {
    const validate = ajv.compile(scheme.credentials);
    if (validate(credentials)) return scheme;
    for (const error of validate.errors ?? []) {
      const extra = (error.params as { additionalProperty?: string }).additionalProperty;
      const missing = (error.params as { missingProperty?: string }).missingProperty;
      const field = extra ?? missing;
      details.push({
        path: `/credentials${error.instancePath}${field ? `/${field}` : ''}`,
        message: `${scheme.name}: ${extra ? 'is not a field of this scheme' : (error.message ?? 'is invalid')}`,
      });
    }
  }
  throw new InvalidCredentialsError(`credentials match no auth scheme of ${manifest.type}; expected one of: ${manifest.auth.map(describeScheme).join('; ')}`, {
    details,
  });
}
