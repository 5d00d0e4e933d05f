import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connect, DownloadStream, type RecordResult } from '../../engine/index.js';
import { startCli } from '../support/cli.js';
import { blobSha256, expectedBlobBytes, LARGE_ATTACHMENT_SIZE } from '../../engine/sandbox/index.js';
import { startAsana, type AsanaHarness } from '../support/asana.js';

let hub: AsanaHarness;

beforeAll(async () => {
  hub = await startAsana();
});
afterAll(() => hub.close());

async function collect(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

function anchors() {
  return hub.sandbox.fakes.asana.anchors.attachments;
}

describe('asana attachments', () => {
  test('list and get return the attachment records of SPEC.md', async () => {
    const attachment = (await hub.asana().execute('attachments', 'get', { attachment_gid: anchors().asana })) as RecordResult;
    const parent = (attachment.data.parent as { gid: string }).gid;
    const listed = (await hub.asana().execute('attachments', 'list', { parent })) as { data: Array<Record<string, unknown>> };
    const mine = listed.data.find((a) => a.gid === anchors().asana)!;
    expect(Object.keys(mine).sort()).toEqual(['gid', 'name', 'resource_subtype', 'resource_type']);
    for (const field of [
      'gid',
      'resource_type',
      'name',
      'resource_subtype',
      'created_at',
      'host',
      'download_url',
      'permanent_url',
      'view_url',
      'parent',
      'size',
    ]) {
      expect(attachment.data).toHaveProperty(field);
    }
    expect(attachment.data.host).toBe('asana');
  });

  test('download streams the whole file, fetched without the Asana token', async () => {
    const fake = hub.sandbox.fakes.asana;
    const file = await hub.asana().execute('attachments', 'download', { attachment_gid: anchors().asana });
    expect(file).toBeInstanceOf(DownloadStream);
    const size = file.record.size as number;
    const bytes = await collect(file);
    expect(file.status).toBe(200);
    expect(file.contentLength).toBe(size);
    expect(bytes.length).toBe(size);
    expect(bytes.equals(expectedBlobBytes(anchors().asana, 0, size - 1))).toBe(true);
    const blob = fake.blobRequests.at(-1)!;
    expect(blob.headers.authorization).toBeUndefined();
  });

  test('range_header returns exactly the requested bytes with 206', async () => {
    const file = await hub.asana().execute('attachments', 'download', { attachment_gid: anchors().asana, range_header: 'bytes=100-1123' });
    const bytes = await collect(file);
    expect(file.status).toBe(206);
    expect(bytes.length).toBe(1024);
    expect(bytes.equals(expectedBlobBytes(anchors().asana, 100, 1123))).toBe(true);
    expect(file.contentRange).toBe(`bytes 100-1123/${file.record.size}`);
    const suffix = await collect(await hub.asana().execute('attachments', 'download', { attachment_gid: anchors().asana, range_header: 'bytes=-10' }));
    const size = (await hub.raw(`/attachments/${anchors().asana}`)).body.data.size as number;
    expect(suffix.equals(expectedBlobBytes(anchors().asana, size - 10, size - 1))).toBe(true);
  });

  test('an unsatisfiable range is INVALID_PARAMS naming range_header', async () => {
    const error = await hub
      .asana()
      .execute('attachments', 'download', { attachment_gid: anchors().asana, range_header: 'bytes=999999999999-' })
      .catch((e) => e);
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.details[0].path).toBe('/range_header');
  });

  test.each(['box', 'external'] as const)('an attachment on %s has no download URL: NOT_FOUND, never zero bytes', async (host) => {
    const fake = hub.sandbox.fakes.asana;
    const before = fake.blobRequests.length;
    const error = await hub
      .asana()
      .execute('attachments', 'download', { attachment_gid: anchors()[host] })
      .catch((e) => e);
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('has no download URL');
    expect(fake.blobRequests.length).toBe(before);
  });

  test('an expired download URL is read again once, then the file comes', async () => {
    const fake = hub.sandbox.fakes.asana;
    const reads = () => fake.requests.filter((r) => r.path.endsWith(`/attachments/${anchors().asana}`)).length;
    const before = reads();
    fake.expireNextDownloadUrls(1);
    const bytes = await collect(await hub.asana().execute('attachments', 'download', { attachment_gid: anchors().asana }));
    expect(bytes.equals(expectedBlobBytes(anchors().asana, 0, bytes.length - 1))).toBe(true);
    expect(reads() - before).toBe(2);
    fake.expireNextDownloadUrls(2);
    const error = await hub
      .asana()
      .execute('attachments', 'download', { attachment_gid: anchors().asana })
      .catch((e) => e);
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(error.upstream.status).toBe(403);
    expect(reads() - before).toBe(4);
  });

  test('a 200 MiB attachment streams with resident memory growing by less than 64 MB', async () => {
    // The fake serves from its own process (the CLI sandbox), so this process's resident memory is
    // the engine's alone. Same seed, same gids as the in-process sandbox.
    const gid = anchors().large;
    const { child, firstLine } = await startCli(['sandbox', '--no-rate-limits']);
    try {
      const info = JSON.parse(firstLine).asana as { base_url: string; credentials: Record<string, string>; allow_origins: string[] };
      const asana = connect('asana', { credentials: info.credentials, baseUrl: info.base_url, allowOrigins: info.allow_origins, rateLimit: false });
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const hash = createHash('sha256');
      let total = 0;
      for await (const chunk of await asana.execute('attachments', 'download', { attachment_gid: gid })) {
        hash.update(chunk);
        total += chunk.length;
        if ((total & 0xfffff) < chunk.length) peak = Math.max(peak, process.memoryUsage().rss);
      }
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(total).toBe(LARGE_ATTACHMENT_SIZE);
      expect(hash.digest('hex')).toBe(blobSha256(gid, LARGE_ATTACHMENT_SIZE));
      console.log(`download 200 MiB: rss growth ${((peak - baseline) / 1048576).toFixed(1)} MiB`);
      expect(peak - baseline).toBeLessThan(64 * 1024 * 1024);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
