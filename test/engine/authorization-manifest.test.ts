/**
 * A manifest whose OAuth `authorization` block is wrong fails at load, each problem at its
 * file:line:col (the manifest-validation.test.ts style), before any user reaches a consent page.
 */
import { describe, expect, test } from 'vitest';
import { ManifestInvalidError, parseManifest } from '../../engine/index.js';
import { MINIMAL_MANIFEST } from '../fixtures/minimal-manifest.js';

/** The minimal fixture with an OAuth scheme that declares a valid authorization-code flow with PKCE. */
const OAUTH_MANIFEST = MINIMAL_MANIFEST.replace('  api: [api.example.com]\n', '  api: [api.example.com]\n  token: [auth.example.com]\n').replace(
  `auth:
  - name: token
    credentials:
      type: object
      required: [token]
      properties:
        token: { type: string, description: API token. }
    sign: { type: bearer, token: "{{credentials.token}}" }
`,
  `auth:
  - name: oauth
    credentials:
      type: object
      required: [client_id, client_secret, refresh_token]
      properties:
        client_id: { type: string, description: App client id. }
        client_secret: { type: string, writeOnly: true, description: App client secret. }
        refresh_token: { type: string, writeOnly: true, description: Refresh token. }
        access_token: { type: string, writeOnly: true, description: Access token. }
        expires_at: { type: string, description: Expiry. }
    sign: { type: bearer, token: "{{credentials.access_token}}" }
    oauth2:
      token_url: https://auth.example.com/token
      body_format: form
      body: { grant_type: refresh_token, refresh_token: "{{credentials.refresh_token}}", client_id: "{{credentials.client_id}}", client_secret: "{{credentials.client_secret}}" }
      response: { access_token: access_token, refresh_token: refresh_token, expires_in: expires_in }
    authorization:
      url: https://auth.example.com/authorize
      query:
        client_id: "{{credentials.client_id}}"
        redirect_uri: "{{params.redirect_uri}}"
        state: "{{params.state}}"
        scope: "{{params.scope}}"
        code_challenge: "{{params.code_challenge}}"
        code_challenge_method: "{{params.code_challenge_method}}"
      scopes: [read]
      pkce: { method: S256 }
      exchange:
        body:
          grant_type: authorization_code
          code: "{{params.code}}"
          redirect_uri: "{{params.redirect_uri}}"
          client_id: "{{credentials.client_id}}"
          client_secret: "{{credentials.client_secret}}"
          code_verifier: "{{params.code_verifier}}"
`,
);

function problems(text: string): string[] {
  try {
    parseManifest(text, 'demo.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestInvalidError);
    return ((error as ManifestInvalidError).details ?? []).map((d) => `${d.path} ${d.message}`);
  }
  return [];
}

function lineOf(text: string, needle: string): number {
  const index = text.split('\n').findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`fixture has no line with ${needle}`);
  return index + 1;
}

function broken(from: string, to: string): string {
  if (!OAUTH_MANIFEST.includes(from)) throw new Error(`fixture lacks ${from}`);
  return OAUTH_MANIFEST.replace(from, to);
}

describe('authorization blocks are checked at load', () => {
  test('the fixture with a full authorization flow is valid', () => {
    expect(problems(OAUTH_MANIFEST)).toEqual([]);
  });

  // [what, from, to, a needle of the line the problem is reported at (a map's first entry for the map), message]
  const cases: Array<[string, string, string, string, string]> = [
    [
      'a secret in the authorize URL',
      'client_id: "{{credentials.client_id}}"\n        redirect_uri',
      'client_id: "{{credentials.client_secret}}"\n        redirect_uri',
      'client_id: "{{credentials.client_secret}}"',
      "the authorize URL reads credentials.client_secret, a secret (writeOnly): the user's browser shows this URL",
    ],
    [
      'no state in the authorize URL',
      '        state: "{{params.state}}"\n',
      '',
      '        client_id: "{{credentials.client_id}}"',
      'the authorize URL must send params.state',
    ],
    ['no code in the exchange', '          code: "{{params.code}}"\n', '', 'grant_type: authorization_code', 'the exchange must send params.code'],
    [
      'pkce without a verifier',
      '          code_verifier: "{{params.code_verifier}}"\n',
      '',
      'grant_type: authorization_code',
      'with pkce, the exchange must send params.code_verifier',
    ],
    [
      'a PKCE param without pkce',
      '      pkce: { method: S256 }\n',
      '',
      '        client_id: "{{credentials.client_id}}"',
      'params.code_challenge is only set with pkce; declare pkce or leave it out',
    ],
    [
      'an unknown exchange param',
      'code: "{{params.code}}"',
      'code: "{{params.auth_code}}"',
      'params.auth_code',
      'template variable "params.auth_code" is not declared in the params schema',
    ],
    [
      'a plain http authorize URL',
      'url: https://auth.example.com/authorize',
      'url: http://auth.example.com/authorize',
      'url: http://auth.example.com/authorize',
      '"http://auth.example.com/authorize" must be an absolute https URL',
    ],
    [
      'an exchange that never authenticates the client',
      '          client_secret: "{{credentials.client_secret}}"\n          code_verifier',
      '          code_verifier',
      'grant_type: authorization_code',
      'the exchange must authenticate the client: oauth2.client_auth, or a field reading a secret credential (e.g. credentials.client_secret)',
    ],
    ['a scope with a space', 'scopes: [read]', 'scopes: ["read write"]', 'scopes: ["read write"]', '"read write" holds a space; list each scope on its own'],
    [
      'an unknown key',
      '      pkce: { method: S256 }',
      '      pkce: { method: S256 }\n      prompt: consent',
      'prompt: consent',
      'has unknown property "prompt"',
    ],
  ];

  test.each(cases)('%s fails at load, at its line', (_what, from, to, needle, message) => {
    const text = broken(from, to);
    const found = problems(text);
    const at = new RegExp(`^demo\\.yaml:${lineOf(text, needle)}:\\d+ `);
    expect(found.filter((p) => at.test(p)).map((p) => p.replace(at, '').replace(/^\/auth\/0\/authorization /, ''))).toContain(message);
  });

  test('authorization without oauth2 on the scheme fails at its own line', () => {
    const start = OAUTH_MANIFEST.indexOf('    oauth2:');
    const end = OAUTH_MANIFEST.indexOf('    authorization:');
    const text = OAUTH_MANIFEST.slice(0, start) + OAUTH_MANIFEST.slice(end);
    const found = problems(text);
    expect(found).toContain(
      `demo.yaml:${lineOf(text, 'url: https://auth.example.com/authorize')}:7 an authorization flow needs oauth2 on the same scheme (its token endpoint and answer)`,
    );
  });
});
