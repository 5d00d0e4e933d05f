import { startSandbox } from '../sandbox/index.js';

export interface SandboxOptions {
  port?: string;
  records?: string;
  seed?: string;
  rateLimits: boolean;
}

function intOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/**
 * `connector-engine sandbox`: serves the fake upstreams and prints, as the first stdout line, one
 * JSON object with a base URL, working credentials and config per connector type (DESIGN.md §8).
 */
export async function sandboxCommand(options: SandboxOptions): Promise<void> {
  const port = intOption('port', options.port);
  const records = intOption('records', options.records);
  const seed = intOption('seed', options.seed);
  const sandbox = await startSandbox({
    ...(port !== undefined ? { port } : {}),
    ...(records !== undefined ? { records } : {}),
    ...(seed !== undefined ? { seed } : {}),
    rateLimits: options.rateLimits,
  });
  process.stdout.write(JSON.stringify(sandbox.describe()) + '\n');
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
