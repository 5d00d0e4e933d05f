import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli, startCli } from '../support/cli.js';

type Upstream = { base_url: string; credentials: Record<string, string>; config: Record<string, unknown>; allow_origins: string[] };
let sandbox: ChildProcess;
let upstreams: Record<string, Upstream>;
let dir: string;

beforeAll(async () => {
  const started = await startCli(['sandbox', '--no-rate-limits']);
  sandbox = started.child;
  upstreams = JSON.parse(started.firstLine);
  dir = mkdtempSync(join(tmpdir(), 'cli-connectors-'));
  for (const [type, info] of Object.entries(upstreams)) writeFileSync(join(dir, `${type}.json`), JSON.stringify(info.credentials));
});
afterAll(() => {
  sandbox?.kill('SIGTERM');
});

async function exec(type: string, entity: string, action: string, params: object = {}, extra: string[] = []) {
  const info = upstreams[type]!;
  const result = await runCli([
    'exec',
    type,
    entity,
    action,
    '--params',
    JSON.stringify(params),
    '--credentials',
    join(dir, `${type}.json`),
    '--config',
    JSON.stringify(info.config),
    '--base-url',
    info.base_url,
    ...extra,
  ]);
  if (result.code !== 0) throw new Error(`exec ${type} ${entity} ${action} failed: ${result.stderr}`);
  return result.stdout;
}

// One list and one get per connector, from the command line, reading ids from the list.
const cases: Array<[string, string, object, (record: Record<string, unknown>) => [string, object]]> = [
  ['asana', 'workspaces', {}, (r) => ['workspaces', { workspace_gid: r.gid }]],
  ['amazon-ads', 'profiles', {}, (r) => ['profiles', { profileId: r.profileId }]],
  ['shopify', 'orders', { limit: 3 }, (r) => ['orders', { order_id: r.id }]],
  ['gong', 'users', {}, (r) => ['users', { id: r.id }]],
];

describe('connector-engine exec on every connector', () => {
  test.each(cases)('%s %s list, then get', async (type, entity, params, toGet) => {
    const list = JSON.parse(await exec(type, entity, 'list', params));
    expect(list.data.length).toBeGreaterThan(0);
    expect(typeof list.meta.has_more).toBe('boolean');
    const [getEntity, getParams] = toGet(list.data[0]);
    const one = JSON.parse(await exec(type, getEntity, 'get', getParams));
    expect(one.data).toMatchObject(Object.fromEntries(Object.entries(list.data[0]).filter(([k]) => ['gid', 'id', 'profileId'].includes(k))));
  });

  test('asana attachments download writes the file to --output', async () => {
    const workspaces = JSON.parse(await exec('asana', 'workspaces', 'list'));
    expect(workspaces.data.length).toBeGreaterThan(0);
    const anchorsRaw = await fetch(`${upstreams.asana!.base_url}/workspaces`, { headers: { authorization: `Bearer ${upstreams.asana!.credentials.token}` } });
    expect(anchorsRaw.status).toBe(200);
    const tasks = JSON.parse(await exec('asana', 'workspace_projects', 'list', { workspace_gid: workspaces.data[0].gid, limit: 1 }));
    const projectTasks = JSON.parse(await exec('asana', 'project_tasks', 'list', { project_gid: tasks.data[0].gid, limit: 100 }));
    let attachment: { gid: string } | undefined;
    for (const task of projectTasks.data) {
      const list = JSON.parse(await exec('asana', 'attachments', 'list', { parent: task.gid }));
      const record = list.data.length ? JSON.parse(await exec('asana', 'attachments', 'get', { attachment_gid: list.data[0].gid })) : undefined;
      if (record?.data.download_url && record.data.size) {
        attachment = record.data;
        break;
      }
    }
    expect(attachment).toBeDefined();
    const output = join(dir, 'file.bin');
    const args = [
      'exec',
      'asana',
      'attachments',
      'download',
      '--params',
      JSON.stringify({ attachment_gid: attachment!.gid }),
      '--credentials',
      join(dir, 'asana.json'),
      '--base-url',
      upstreams.asana!.base_url,
      '--output',
      output,
    ];
    // The file host is another origin: without --allow-origin the download is refused before it connects.
    const refused = await runCli(args);
    expect(refused.code).toBe(1);
    const error = JSON.parse(refused.stderr).error;
    expect(error.code).toBe('HOST_NOT_ALLOWED');
    expect(error.message).toContain(`files request to ${new URL(upstreams.asana!.allow_origins[0]!).host}/`);
    expect(error.message).toContain('rule https');
    expect(error.message).not.toMatch(/X-Amz-Signature/i);
    const result = await runCli([...args, ...upstreams.asana!.allow_origins.flatMap((origin) => ['--allow-origin', origin])]);
    expect(result.code).toBe(0);
    const info = JSON.parse(result.stderr);
    const bytes = readFileSync(output);
    expect(info).toMatchObject({ status: 200, content_length: bytes.length, output });
    expect(bytes.length).toBe((attachment as { size?: number }).size);
    expect(createHash('sha256').update(bytes).digest('hex')).toMatch(/^[0-9a-f]{64}$/);
  });
});
