import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The built CLI entry (npm test builds before running vitest). */
export const CLI = fileURLToPath(new URL('../../dist/engine/cli/main.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion, as a user's shell would, with `env` added to this process's environment. */
export function runCli(args: string[], input?: string, env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** Starts a long-running CLI command and resolves with its first stdout line. */
export function startCli(args: string[]): Promise<{ child: ChildProcess; firstLine: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = createInterface({ input: child.stdout! });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    lines.once('line', (firstLine) => resolve({ child, firstLine }));
    child.once('exit', (code) => reject(new Error(`CLI exited with ${code} before printing: ${stderr}`)));
  });
}
