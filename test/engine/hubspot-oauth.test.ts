import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, type ListResult } from '../../engine/index.js';
import { startHubspot, type HubspotHarness } from '../support/hubspot.js';

let hub: HubspotHarness;

beforeAll(async () => {
  hub = await startHubspot();
});
afterAll(() => hub.close());

function oauthCredentials(accessToken?: string, expiresAt?: string) {
  const { client_id, client_secret, refresh_token } = hub.oauth;
  return {
    client_id: client_id!,
    client_secret: client_secret!,
    refresh_token: refresh_token!,
    ...(accessToken ? { access_token: accessToken } : {}),
    ...(expiresAt ? { expires_at: expiresAt } : {}),
  };
}

function bearerOf(request: { headers: Record<string, unknown> }): string {
  return String(request.headers.authorization ?? '').replace(/^Bearer /, '');
}

describe('hubspot OAuth', () => {
  test('50 concurrent calls with an expired token cause exactly one refresh, and all succeed', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    const expired = fake.issueAccessToken(1800);
    fake.expireAllAccessTokens();
    const changes: Array<Record<string, unknown>> = [];
    const connection = connect('hubspot', {
      credentials: oauthCredentials(expired),
      baseUrl: hub.baseUrl,
      onCredentialsChange: (c) => {
        changes.push(c);
      },
    });
    const tokenRequestsBefore = fake.stats.tokenRequests;
    const results = await Promise.all(Array.from({ length: 50 }, () => connection.execute('contacts', 'list', { limit: 1 })));
    expect(results.every((r) => (r as ListResult).data.length === 1)).toBe(true);
    expect(fake.stats.tokenRequests - tokenRequestsBefore).toBe(1);
    expect(connection.stats.refreshes).toBe(1);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.access_token).not.toBe(expired);
    expect(changes[0]!.refresh_token).toBe(hub.oauth.refresh_token);
    expect(Date.parse(String(changes[0]!.expires_at))).toBeGreaterThan(Date.now() + 1700_000);
  });

  test('a known expiry is refreshed before the call, with no 401 on the way', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    const stale = fake.issueAccessToken(1800);
    const connection = connect('hubspot', {
      credentials: oauthCredentials(stale, new Date(Date.now() - 1000).toISOString()),
      baseUrl: hub.baseUrl,
    });
    const before = fake.requests.length;
    const tokenRequestsBefore = fake.stats.tokenRequests;
    await Promise.all(Array.from({ length: 10 }, () => connection.execute('deals', 'list', { limit: 1 })));
    expect(fake.stats.tokenRequests - tokenRequestsBefore).toBe(1);
    const apiCalls = fake.requests.slice(before).filter((r) => r.path.startsWith('/crm/'));
    expect(apiCalls).toHaveLength(10);
    expect(apiCalls.every((r) => r.response.status === 200 && bearerOf(r) !== stale)).toBe(true);
  });

  test('credentials without an access token get one first', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    const connection = connect('hubspot', { credentials: oauthCredentials(), baseUrl: hub.baseUrl });
    const result = (await connection.execute('companies', 'list', { limit: 2 })) as ListResult;
    expect(result.data).toHaveLength(2);
    expect(typeof connection.credentials.access_token).toBe('string');
    expect(bearerOf(fake.requests.at(-1)!)).toBe(connection.credentials.access_token);
  });

  test('rotated credentials reach onCredentialsChange before any request uses them', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    let usedBeforeHandOver = -1;
    const connection = connect('hubspot', {
      credentials: oauthCredentials(),
      baseUrl: hub.baseUrl,
      onCredentialsChange: async (c) => {
        await new Promise((r) => setTimeout(r, 50));
        usedBeforeHandOver = fake.requests.filter((r) => bearerOf(r) === c.access_token).length;
      },
    });
    await connection.execute('contacts', 'list', { limit: 1 });
    expect(usedBeforeHandOver).toBe(0);
    expect(bearerOf(fake.requests.at(-1)!)).toBe(connection.credentials.access_token);
  });

  test('a refused refresh token is REAUTH_REQUIRED, never retried, with no secret in the error', async () => {
    const fake = hub.sandbox.fakes.hubspot;
    const credentials = { ...oauthCredentials(), refresh_token: 'rt-that-the-fake-never-issued-1234' };
    const connection = connect('hubspot', { credentials, baseUrl: hub.baseUrl });
    const before = fake.stats.tokenRequests;
    const error = await connection.execute('contacts', 'list').catch((e) => e);
    expect(error.code).toBe('REAUTH_REQUIRED');
    expect(error.status).toBe(409);
    expect(error.upstream.status).toBe(400);
    expect(fake.stats.tokenRequests - before).toBe(1);
    const text = JSON.stringify(error.toJSON()) + error.message;
    for (const secret of [credentials.refresh_token, credentials.client_secret]) expect(text).not.toContain(secret);
    const again = await connection.execute('contacts', 'list').catch((e) => e);
    expect(again.code).toBe('REAUTH_REQUIRED');
  });

  test('a failing onCredentialsChange fails the call with INTERNAL and keeps the new tokens in memory', async () => {
    const connection = connect('hubspot', {
      credentials: oauthCredentials(),
      baseUrl: hub.baseUrl,
      onCredentialsChange: () => {
        throw new Error('disk full');
      },
    });
    const error = await connection.execute('contacts', 'list').catch((e) => e);
    expect(error.code).toBe('INTERNAL');
    expect(error.message).toContain('onCredentialsChange failed: disk full');
    expect(typeof connection.credentials.access_token).toBe('string');
  });
});
