/**
 * Runs every entity's example call against the sandbox's fake upstreams, in-process, with their
 * fixed seed and a fixed clock, so the answers (and so the pages) are the same on every run.
 */
import { connect, createManualClock, type Connection, type LoadedManifest } from '../../engine/index.js';
import { startSandbox, type Sandbox, type SandboxFakes } from '../../engine/sandbox/index.js';
import { EXAMPLE_CALLS, type ExampleCall, type ExampleContext } from './example-calls.js';

/**
 * The sandbox the examples run against: `startSandbox({ records: 100 })`, seed 42, with the fakes
 * and the engine at a fixed time (2026-01-01T00:00:00Z). Why the fixed time: some answers carry
 * one (Asana's offset tokens hold when they were made); fixed, they come out the same every run.
 */
export const EXAMPLE_SANDBOX = { records: 100, seed: 42, now: Date.UTC(2026, 0, 1) } as const;

/** One example call and the sandbox's answer to it. */
export interface ExampleRun {
  entity: string;
  action: string;
  params: Record<string, unknown>;
  answer: { data: unknown; meta: Record<string, unknown> };
}

/** What the pages need of a sandbox run: the answers, and what to keep out of the pages. */
export interface ExampleRuns {
  /** Connector type -> entity -> its example. */
  runs: Map<string, Map<string, ExampleRun>>;
  /** The sandbox's origins (their ports change from run to run). */
  origins: string[];
  /** The sandbox's values of every secret (writeOnly) credential field: none may appear on a page. */
  secrets: string[];
}

function examplesOf(type: string, entities: string[]): Record<string, ExampleCall> {
  const examples = EXAMPLE_CALLS[type] ?? {};
  const missing = entities.filter((entity) => !(entity in examples));
  const unknown = Object.keys(examples).filter((entity) => !entities.includes(entity));
  if (missing.length > 0 || unknown.length > 0) {
    throw new Error(
      `scripts/connector-docs/example-calls.ts: ${type} needs one example per entity (missing: ${missing.join(', ') || 'none'}; unknown: ${unknown.join(', ') || 'none'})`,
    );
  }
  return examples;
}

/** The sandbox's values of the credential fields the manifest marks writeOnly. */
function secretValues(loaded: LoadedManifest, byScheme: Record<string, Record<string, string>>): string[] {
  return loaded.manifest.auth.flatMap((scheme) => {
    const fields = Object.entries((scheme.credentials.properties ?? {}) as Record<string, { writeOnly?: boolean }>);
    return fields.filter(([, field]) => field.writeOnly === true).flatMap(([name]) => byScheme[scheme.name]?.[name] ?? []);
  });
}

function firstRecord(value: unknown, label: string): Record<string, unknown> {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === null || typeof first !== 'object' || Array.isArray(first)) throw new Error(`${label} answered no record to take params from`);
  return first as Record<string, unknown>;
}

/**
 * Runs a connector's examples, each once: an example's params may ask for another example's
 * answer, which then runs first.
 */
function exampleRunner(
  connection: Connection,
  type: string,
  examples: Record<string, ExampleCall>,
  fakes: SandboxFakes,
): (entity: string) => Promise<ExampleRun> {
  const started = new Map<string, Promise<ExampleRun>>();
  const context: ExampleContext = { fakes, first: async (entity) => firstRecord((await run(entity)).answer.data, `${type} ${entity}`) };
  async function call(entity: string): Promise<ExampleRun> {
    const example = examples[entity] as ExampleCall;
    const params = typeof example.params === 'function' ? await example.params(context) : example.params;
    const answer = await connection.execute(entity, example.action, params);
    // A download answers a stream of bytes, which a page cannot show.
    if (!('meta' in answer)) throw new Error(`${type} ${entity} ${example.action} answers no records: give the entity a list or get example`);
    return { entity, action: example.action, params, answer: { data: answer.data, meta: answer.meta } };
  }
  function run(entity: string): Promise<ExampleRun> {
    const running = started.get(entity) ?? call(entity);
    started.set(entity, running);
    return running;
  }
  return run;
}

async function runConnector(sandbox: Sandbox, loaded: LoadedManifest): Promise<Map<string, ExampleRun>> {
  const { manifest } = loaded;
  const upstream = sandbox.upstreams[manifest.type];
  if (!upstream) throw new Error(`the sandbox has no fake for ${manifest.type}`);
  const examples = examplesOf(manifest.type, Object.keys(manifest.entities));
  const options = { credentials: upstream.credentials, config: upstream.config, baseUrl: upstream.base_url, allowOrigins: upstream.allow_origins };
  const connection: Connection = connect(loaded, { ...options, clock: createManualClock(EXAMPLE_SANDBOX.now), rateLimit: false });
  const run = exampleRunner(connection, manifest.type, examples, sandbox.fakes);
  try {
    const done = new Map<string, ExampleRun>();
    for (const entity of Object.keys(manifest.entities)) done.set(entity, await run(entity));
    return done;
  } finally {
    await connection.close();
  }
}

/** Starts the sandbox, runs every manifest's examples in order, and stops it. */
export async function runExamples(manifests: LoadedManifest[]): Promise<ExampleRuns> {
  const sandbox = await startSandbox({ records: EXAMPLE_SANDBOX.records, seed: EXAMPLE_SANDBOX.seed, rateLimits: false, now: () => EXAMPLE_SANDBOX.now });
  try {
    const runs = new Map<string, Map<string, ExampleRun>>();
    const secrets: string[] = [];
    for (const loaded of manifests) {
      runs.set(loaded.manifest.type, await runConnector(sandbox, loaded));
      secrets.push(...secretValues(loaded, sandbox.upstreams[loaded.manifest.type]?.credentials_by_scheme ?? {}));
    }
    const origins = Object.values(sandbox.upstreams).flatMap((upstream) => [new URL(upstream.base_url).origin, ...upstream.allow_origins]);
    return { runs, origins, secrets };
  } finally {
    await sandbox.close();
  }
}
