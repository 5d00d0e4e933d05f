/**
 * The connectors' reference pages (docs/connectors/), generated from the manifests with example
 * answers from the sandbox. test/generated-files.test.ts fails when a page is stale; this file
 * checks what the pages say: that every connector has one, that the examples are the fakes' real
 * answers (whole or marked abridged), that each documented meta field is what the engine answers,
 * that no secret reaches a page, and that generating twice gives the same bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connect, createManualClock, shippedManifests } from '../../engine/index.js';
import { startSandbox, type Sandbox } from '../../engine/sandbox/index.js';
import { packageRoot } from '../../engine/package-root.js';
import { EXAMPLE_SANDBOX, renderConnectorDocs } from '../../scripts/connector-docs/index.js';

const root = packageRoot();
const types = [...shippedManifests().keys()].sort();
const page = (type: string): string => readFileSync(join(root, 'docs', 'connectors', `${type}.md`), 'utf8');

let sandbox: Sandbox;
beforeAll(async () => {
  // The pages' own sandbox: the same records, seed and fixed time.
  sandbox = await startSandbox({ records: EXAMPLE_SANDBOX.records, seed: EXAMPLE_SANDBOX.seed, rateLimits: false, now: () => EXAMPLE_SANDBOX.now });
});
afterAll(async () => {
  await sandbox?.close();
});

function connectTo(type: string) {
  const upstream = sandbox.upstreams[type]!;
  return connect(type, {
    credentials: upstream.credentials,
    config: upstream.config,
    baseUrl: upstream.base_url,
    allowOrigins: upstream.allow_origins,
    clock: createManualClock(EXAMPLE_SANDBOX.now),
    rateLimit: false,
  });
}

/** The text of a page between a heading and the next heading of the same or a higher level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no heading ${heading}`);
  const level = heading.split(' ')[0]!;
  const rest = text.slice(start + heading.length + 2);
  const next = rest.search(new RegExp(`^#{1,${level.length}} `, 'm'));
  return next < 0 ? rest : rest.slice(0, next);
}

/** The example of an entity: its call line, what the page says of it, and its JSON answer. */
function example(text: string, entity: string, action: string) {
  const body = section(text, `#### Example: \`${entity} ${action}\``);
  const [, call] = /```js\n(.*)\n```/.exec(body)!;
  const [, said] = /\n(The sandbox's answer.*):\n/.exec(body)!;
  const [, json] = /```json\n([\s\S]*?)\n```/.exec(body)!;
  return { call: call!, said: said!, answer: JSON.parse(json!) as { data: any; meta: Record<string, unknown> } };
}

/** The meta field names an action's section lists. */
function documentedMeta(text: string, entity: string, action: string): string[] {
  const body = section(text, `#### \`${entity} ${action}\``);
  const list = body.slice(body.indexOf('and in `meta`:'));
  return [...list.matchAll(/^- `([^`]+)`:/gm)].map((match) => match[1]!);
}

test('every shipped connector has a reference page, listed in the index and linked from the README', () => {
  expect(types).toEqual(['amazon-ads', 'asana', 'gong', 'hubspot', 'shopify']);
  const index = readFileSync(join(root, 'docs', 'connectors', 'README.md'), 'utf8');
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  for (const type of types) {
    const { manifest } = shippedManifests().get(type)!;
    expect(page(type).split('\n')[2]).toBe(`# ${manifest.name} (\`${type}\`)`);
    for (const entity of Object.keys(manifest.entities)) expect(page(type)).toContain(`\n### ${entity}\n`);
    expect(index).toContain(`\n- [${manifest.name}](${type}.md) (\`${type}\`): ${Object.keys(manifest.entities).length} entities (`);
    expect(readme).toContain(`(docs/connectors/${type}.md)`);
  }
  expect(index.split('\n').filter((line) => line.startsWith('- ['))).toHaveLength(5);
});

test('generating twice gives the same pages, byte for byte, and they are the committed ones', async () => {
  const first = await renderConnectorDocs();
  const second = await renderConnectorDocs();
  expect([...first.keys()]).toEqual([...types.map((type) => join('docs', 'connectors', `${type}.md`)), join('docs', 'connectors', 'README.md')]);
  for (const [file, text] of first) {
    expect(second.get(file)).toBe(text);
    expect(readFileSync(join(root, file), 'utf8')).toBe(text);
  }
});

test('an example that needs no abridging is the sandbox answer in full, its port aside', async () => {
  const hubspot = connectTo('hubspot');
  const real = await hubspot.execute('contacts', 'list', { limit: 2 });
  await hubspot.close();
  const shown = example(page('hubspot'), 'contacts', 'list');
  expect(shown.call).toBe("const answer = await hubspot.execute('contacts', 'list', { limit: 2 });");
  expect(shown.said).toBe("The sandbox's answer, in full");
  const origin = new URL(sandbox.upstreams.hubspot!.base_url).origin;
  expect(shown.answer).toEqual(JSON.parse(JSON.stringify(real).replaceAll(origin, 'http://127.0.0.1:<port>')));
  expect(shown.answer.data.map((contact: any) => contact.properties.email)).toEqual(['ada.lovelace@example.com', 'jose.nunez@example.com']);
});

test('an abridged example shows the first records and marks every cut where it is', async () => {
  const gong = connectTo('gong');
  const calls = await gong.execute('calls', 'list', {});
  await gong.close();
  const shown = example(page('gong'), 'calls', 'list');
  expect(calls.data).toHaveLength(97);
  expect(shown.said).toBe("The sandbox's answer, abridged (the first 2 of 97 records)");
  expect(shown.answer).toEqual({ data: (calls.data as unknown[]).slice(0, 2), meta: calls.meta });

  const asana = connectTo('asana');
  const tasks = await asana.execute('project_tasks', 'list', { project_gid: sandbox.fakes.asana.anchors.bigProjectGid, limit: 2 });
  await asana.close();
  const paged = example(page('asana'), 'project_tasks', 'list');
  const cursor = String(tasks.meta.next_cursor);
  expect(paged.said).toBe("The sandbox's answer, abridged (strings over 80 characters cut)");
  expect(paged.answer.data).toEqual(tasks.data);
  expect(paged.answer.meta.next_cursor).toBe(`${cursor.slice(0, 80)}… (abridged from ${cursor.length} characters)`);
});

test('each documented meta field of an example action is exactly what the engine answered', () => {
  let checked = 0;
  for (const type of types) {
    const text = page(type);
    for (const [entity] of Object.entries(shippedManifests().get(type)!.manifest.entities)) {
      const [, action] = /^#### Example: `\S+ (\S+)`$/m.exec(section(text, `### ${entity}`))!;
      const shown = example(text, entity, action!);
      expect([entity, documentedMeta(text, entity, action!).sort()]).toEqual([entity, Object.keys(shown.answer.meta).sort()]);
      checked++;
    }
  }
  expect(checked).toBe(45);
});

test('secret credential fields are marked, and no secret value of the sandbox reaches a page', () => {
  const hubspot = page('hubspot');
  expect(hubspot).toContain('\n| `access_token` | string | yes | yes (writeOnly) | at least 1 character | Private-app access token (pat-...). |\n');
  expect(hubspot).toContain('\n| `client_id` | string | yes | no | at least 1 character | OAuth app client id. |\n');
  const secrets = Object.values(sandbox.upstreams).flatMap((upstream) =>
    Object.values(upstream.credentials_by_scheme).flatMap((credentials) => Object.values(credentials)),
  );
  expect(secrets.length).toBeGreaterThan(15);
  // The shop name is a credential field but not a secret one (shopify.yaml), and fake records name it.
  const leaked = types.flatMap((type) =>
    secrets.filter((secret) => secret !== 'sandbox-store' && page(type).includes(secret)).map((secret) => `${type}: ${secret}`),
  );
  expect(leaked).toEqual([]);
});

test('params, rules, config and searchable fields say what the manifests say', () => {
  const hubspot = page('hubspot');
  const list = section(hubspot, '#### `contacts list`');
  expect(list).toContain('\n| `limit` | integer | no | 1 to 100 | - | Maximum results per page (HubSpot default 10, maximum 100). |\n');
  expect(list).toContain('\n- `history-page-size` (on `limit`): with propertiesWithHistory, limit can be at most 50.\n');
  expect(list).toContain('Paged: pass `meta.next_cursor` back as `after`, or let `records()` follow the pages.');
  const search = section(hubspot, '#### `deals search`');
  expect(search).toContain('\n| `limit` | integer | no | 1 to 10000 | `1000` | Maximum results. |\n');
  expect(search).toContain('\n| `companies` | array | - | Computed: read from `associations.companies.results`, the `id` of each; `[]` when absent. |\n');
  expect(search).toContain('\n| `properties.amount` | (in `properties`) | number | - |\n');
  expect(search).toContain('\n| `createdAt` | string | date-time | - |\n');
  const shopify = page('shopify');
  expect(section(shopify, '## Config')).toContain('\n| `shop` | string | yes | `"quickstart-store"` | pattern `^[a-z0-9][a-z0-9-]{0,62}$` |');
  const ads = section(page('amazon-ads'), '## Config');
  expect(ads).toContain(
    '\n- `profile_id` is needed by `portfolios` (list, get), `sponsored_product_campaigns` (list, get): without it those actions fail with `INVALID_CONFIG` before any request. Find a value with `profiles list` (field `profileId`).',
  );
  const asana = section(page('asana'), '#### `workspace_task_search list`');
  expect(asana).toContain('`records()` pages it only in `created_at` order (`sort_by: created_at` or left out).');
});

test('fakes given a fixed time put that time into what they hand out', async () => {
  const asana = connectTo('asana');
  const page1 = await asana.execute('project_tasks', 'list', { project_gid: sandbox.fakes.asana.anchors.bigProjectGid, limit: 1 });
  await asana.close();
  const claims = JSON.parse(Buffer.from(String(page1.meta.next_cursor).split('.')[1]!, 'base64url').toString('utf8'));
  expect([claims.iat, claims.exp]).toEqual([1767225600, 1767225600 + 300]);
});
