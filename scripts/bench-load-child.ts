import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { UpstreamInfo } from '../engine/sandbox/index.js';

/** The upstreams process and what it serves. */
export interface UpstreamsProcess {
  upstreams: Record<string, UpstreamInfo>;
  largeAttachment: string;
  stop(): Promise<void>;
}

/** Starts scripts/bench-load-upstreams.ts in a child process and reads its first line. */
export async function startUpstreamsProcess(hubspotRecords: number): Promise<UpstreamsProcess> {
  const script = fileURLToPath(new URL('./bench-load-upstreams.js', import.meta.url));
  const child: ChildProcess = spawn(process.execPath, [script, String(hubspotRecords)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      lines.close();
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`the upstreams process exited with code ${code}`)));
  });
  const described = JSON.parse(first) as Omit<UpstreamsProcess, 'stop'>;
  return {
    ...described,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}
