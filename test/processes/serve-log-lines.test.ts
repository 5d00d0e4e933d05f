/**
 * `connector-engine serve` writes its log lines in batches (one write per 20 ms at most, not one
 * per line): every line still comes out whole, one JSON object a line, and the lines of the last
 * requests and of the shutdown are out by the time a SIGTERM'd server has exited.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { call } from '../support/http-call.js';
import { killAll, platformToken, startServe } from '../support/sync-processes.js';

afterEach(killAll);

test('the request lines of a burst and the shutdown line are all written, whole, before the process exits', async () => {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'log-lines-')), 'engine.db')}`;
  const serve = await startServe({}, ['--no-sync', '--database-url', databaseUrl]);
  const token = await platformToken(serve.url, databaseUrl);
  // Concurrent, so several requests end within one batch and share a write.
  const answers = await Promise.all(Array.from({ length: 40 }, () => call(serve.url, 'GET', '/v1/integrations/connectors', { token })));
  expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 40 }, () => 200));
  serve.child.kill('SIGTERM');
  await serve.exited();
  expect(serve.child.exitCode).toBe(0);

  const jsonLines = serve.lines.filter((line) => line.startsWith('{'));
  // Every line parses on its own: no two lines were run together or cut.
  expect(jsonLines.every((line) => typeof JSON.parse(line) === 'object')).toBe(true);
  const logs = serve.logs() as Array<{ reqId?: string; msg: string; statusCode?: number; url?: string }>;
  const completed = new Map(logs.filter((line) => line.msg === 'request completed').map((line) => [line.reqId, line]));
  for (const answer of answers) {
    const line = completed.get(answer.headers.get('x-request-id')!);
    expect({ statusCode: line?.statusCode, url: line?.url }).toEqual({ statusCode: 200, url: '/v1/integrations/connectors' });
  }
  expect(logs.filter((line) => line.msg === 'connector-engine: shutting down (requests in flight finish first)').length).toBe(1);
});
