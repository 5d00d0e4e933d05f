import { Command } from 'commander';
import type { McpOptions } from './mcp-command.js';
import { printError } from './output.js';

/** Commander's way to take a repeatable option as a list. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * A command's action with its module loaded only when that command runs: the commands pull in
 * different parts of the engine (the hosted service, the MCP SDK, the fakes), and loading them all
 * cost every start about a second of CPU, `--help` and `clients list` included.
 */
function lazy<M, A extends unknown[]>(load: () => Promise<M>, pick: (module: M) => (...args: A) => unknown): (...args: A) => Promise<void> {
  return guarded(async (...args: A) => {
    await pick(await load())(...args);
  });
}

/** Runs a command's action and prints its failure as the CLI's error line (exit code set there) instead of a stack trace. */
function guarded<A extends unknown[]>(fn: (...args: A) => unknown): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (error) {
      printError(error);
    }
  };
}

/** The `connector-engine` command line (commands in the order `--help` lists them). */
export function buildProgram(): Command {
  const program = new Command('connector-engine')
    .description('Run named actions on entities of third-party APIs through YAML connector manifests.')
    .showHelpAfterError();
  addLintCommand(program);
  addExecCommand(program);
  addEntitiesCommand(program);
  addSandboxCommand(program);
  addServeCommand(program);
  addMcpCommand(program);
  addSyncCommand(program);
  addClientsCommands(program);
  addOAuthAppsCommands(program);
  addWebhooksCommands(program);
  return program;
}

/** `lint`: checks manifests the way loading does, without running anything. */
function addLintCommand(program: Command): void {
  program
    .command('lint')
    .description('validate connector manifests (default: every shipped one); prints file:line:col problems')
    .argument('[files...]', 'manifest files')
    .action(
      lazy(
        () => import('./lint-command.js'),
        ({ lintManifests }) =>
          (files: string[]) => {
            const report = lintManifests(files);
            for (const problem of report.problems) process.stderr.write(problem + '\n');
            const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
            process.stdout.write(`${count(report.files, 'manifest')} checked, ${count(report.problems.length, 'problem')}\n`);
            if (report.problems.length > 0) process.exitCode = 1;
          },
      ),
    );
}

/** `exec`: one action from the shell, against a real upstream or the sandbox. */
function addExecCommand(program: Command): void {
  program
    .command('exec')
    .description('run one action and print the result as JSON')
    .argument(
      '<words...>',
      '<type> <entity> <action>: a shipped connector type (see the connectors folder), an entity (e.g. contacts) and an action (list, get, api_search, ...); with --manifest, only <entity> <action>',
    )
    .option('--manifest <file>', 'run this manifest file instead of a shipped type (a connector you are writing)')
    .option('--params <json>', 'action params as a JSON object')
    .option('--credentials <file>', 'JSON file with the credentials ("-" for stdin); rotated tokens are written back')
    .option('--config <json>', 'connector config as a JSON object')
    .option('--base-url <url>', 'upstream base URL (e.g. the sandbox); its origin is trusted as named')
    .option(
      '--allow-origin <origin>',
      "another origin requests may go to besides the manifest's hosts, e.g. the sandbox's allow_origins (repeatable)",
      collect,
      [],
    )
    .option('--all', 'follow every page and print one record per line (NDJSON)')
    .option('--output <file>', 'for download: write the file here instead of stdout')
    .option('--sandbox', 'run against the built-in fake upstream with its credentials (no set-up needed)')
    .action(
      lazy(
        () => import('./exec-command.js'),
        (m) => m.execCommand,
      ),
    );
}

/** `entities`: what a connector type offers, for someone about to call it. */
function addEntitiesCommand(program: Command): void {
  program
    .command('entities')
    .description("list a connector type's entities, actions and params")
    .argument('[type]', 'connector type (leave it out with --manifest)')
    .option('--manifest <file>', 'describe this manifest file instead of a shipped type')
    .option('--json', 'print JSON instead of text')
    .action(
      lazy(
        async () => ({ ...(await import('./entities-command.js')), ...(await import('./connector-source.js')), ...(await import('./output.js')) }),
        ({ connectorSource, describeEntities, entitiesText, printJson }) =>
          (type: string | undefined, options: { json?: boolean; manifest?: string }) => {
            const { source } = connectorSource(type === undefined ? [] : [type], [], options.manifest);
            if (options.json) printJson(describeEntities(source));
            else process.stdout.write(entitiesText(source) + '\n');
          },
      ),
    );
}

/** `sandbox`: the fake upstreams in the foreground, for trying the engine without accounts. */
function addSandboxCommand(program: Command): void {
  program
    .command('sandbox')
    .description('serve the fake upstream APIs; the first stdout line is JSON with base URLs and credentials')
    .option('--port <n>', 'first port (default: free ports)')
    .option('--records <n>', 'size of the largest collections')
    .option('--seed <n>', 'seed of the generated data')
    .option('--no-rate-limits', "switch the fakes' rate limits and concurrency caps off (benchmarks)")
    .action(
      lazy(
        () => import('./sandbox-command.js'),
        (m) => m.sandboxCommand,
      ),
    );
}

/** `serve`: the hosted HTTP API. */
function addServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the hosted HTTP API (env ENGINE_PORT, ENGINE_DATABASE_URL, ENGINE_SECRET, ENGINE_UPSTREAM_<TYPE>)')
    .option('--port <n>', 'port (default ENGINE_PORT or 8080)')
    .option('--database-url <url>', 'sqlite:<file> or postgres://... (default ENGINE_DATABASE_URL or sqlite:./data/engine.db)')
    .option('--sandbox', 'start the fake upstreams in this process and route every connector type to them')
    .option('--sync-interval <minutes>', 'time between sync passes of a connector (default ENGINE_SYNC_INTERVAL_MINUTES or 60)')
    .option('--no-sync', 'do not run due sync jobs in this process (another process, or `connector-engine sync`, does)')
    .option('--max-connectors-per-user <n>', 'most connectors one end user of one platform client may hold (default ENGINE_MAX_CONNECTORS_PER_USER or 100)')
    .option('--execute-deadline-ms <ms>', 'deadline of an execute whose body names no timeout_ms (default ENGINE_EXECUTE_DEADLINE_MS or 30000)')
    .option(
      '--no-rate-limits',
      "switch the manifests' client-side rate limits and concurrency caps off, and with --sandbox the fakes' limits too (benchmarks only)",
    )
    .action(
      lazy(
        () => import('./serve-command.js'),
        (m) => m.serveCommand,
      ),
    );
}

/** `mcp`: a connector's entities and actions as MCP tools, over stdio, for an agent's MCP client to start. */
function addMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description("serve a connector's entities and actions as MCP tools over stdio (stdout carries MCP only; logs go to stderr)")
    .argument('[type]', 'connector type (leave it out with --manifest)')
    .option('--manifest <file>', 'serve this manifest file instead of a shipped type')
    .option('--credentials <file>', 'JSON file with the credentials; rotated tokens are written back')
    .option('--config <json>', 'connector config as a JSON object')
    .option('--base-url <url>', 'upstream base URL; its origin is trusted as named')
    .option('--allow-origin <origin>', "another origin requests may go to besides the manifest's hosts (repeatable)", collect, [])
    .option('--sandbox', 'serve the built-in fake upstream with its credentials (no set-up needed)')
    .option('--store <url>', 'keep a synchronized copy here (sqlite:<file> or postgres://...): adds the search tools and a sync tool')
    .action(
      lazy(
        () => import('./mcp-command.js'),
        ({ mcpCommand }) =>
          (type: string | undefined, options: McpOptions) =>
            mcpCommand(type === undefined ? [] : [type], options),
      ),
    );
}

/** `sync`: one sync pass by hand, e.g. to fill a copy before the scheduler would. */
function addSyncCommand(program: Command): void {
  program
    .command('sync')
    .description("run a sync pass of a stored connector now, with a progress bar; prints each entity's state as JSON")
    .argument('<connector-id>', 'connector id (from POST /v1/integrations/connectors)')
    .option('--database-url <url>', 'database (default ENGINE_DATABASE_URL or sqlite:./data/engine.db)')
    .option('--full', 'read everything and remove what disappeared, even where an incremental pass would do')
    .option('--sandbox', 'read from the built-in fake upstreams (for connectors created by `serve --sandbox`)')
    .option('--batch-size <records>', 'records per write transaction (default 500); a killed pass loses at most one batch of work')
    .action(
      lazy(
        () => import('./sync-command.js'),
        (m) => m.syncCommand,
      ),
    );
}

/** `clients create|list|revoke`: the platform clients of the hosted API, managed on the database directly. */
function addClientsCommands(program: Command): void {
  const clients = program.command('clients').description('platform clients of the hosted API');
  clients
    .command('create')
    .description('create a platform client; prints {"client_id", "client_secret"} as one JSON line')
    .requiredOption('--name <name>', 'client name')
    .option('--database-url <url>', 'database (default ENGINE_DATABASE_URL or sqlite:./data/engine.db)')
    .action(
      lazy(
        () => import('./clients-command.js'),
        (m) => m.createClientCommand,
      ),
    );
  clients
    .command('list')
    .description('list platform clients, one JSON line each')
    .option('--database-url <url>', 'database')
    .action(
      lazy(
        () => import('./clients-command.js'),
        (m) => m.listClientsCommand,
      ),
    );
  clients
    .command('revoke')
    .description('revoke a platform client: its tokens stop at once and its connectors become unreachable (kept, unless --purge)')
    .argument('<client_id>', 'client id')
    .option('--database-url <url>', 'database')
    .option('--purge', "also delete the client's connectors with their credentials and synchronized copies")
    .action(
      lazy(
        () => import('./clients-command.js'),
        (m) => m.revokeClientCommand,
      ),
    );
}

/** `oauth-apps set|list|remove`: the OAuth apps the Connect page signs users in with, one per connector type. */
function addOAuthAppsCommands(program: Command): void {
  const apps = program.command('oauth-apps').description('OAuth apps (client id and secret per connector type) of the Connect page');
  apps
    .command('set')
    .description('set the OAuth app of a connector type; its redirect URI at the upstream is <service URL>/connect/callback')
    .argument('<type>', 'connector type whose manifest has an authorization flow (see `connector-engine entities`)')
    .requiredOption('--client-id <id>', "the app's client id")
    .requiredOption('--client-secret-file <file>', "a file holding the app's client secret (stored encrypted)")
    .option('--database-url <url>', 'database (default ENGINE_DATABASE_URL or sqlite:./data/engine.db)')
    .action(
      lazy(
        () => import('./oauth-apps-command.js'),
        (m) => m.setOAuthAppCommand,
      ),
    );
  apps
    .command('list')
    .description('list OAuth apps, one JSON line each (never a secret)')
    .option('--database-url <url>', 'database')
    .action(
      lazy(
        () => import('./oauth-apps-command.js'),
        (m) => m.listOAuthAppsCommand,
      ),
    );
  apps
    .command('remove')
    .description('remove the OAuth app of a connector type')
    .argument('<type>', 'connector type')
    .option('--database-url <url>', 'database')
    .action(
      lazy(
        () => import('./oauth-apps-command.js'),
        (m) => m.removeOAuthAppCommand,
      ),
    );
}

/** `webhooks add|list|remove`: the webhook endpoints of platform clients, managed on the database directly. */
function addWebhooksCommands(program: Command): void {
  const webhooks = program.command('webhooks').description("webhook endpoints of the hosted API's platform clients");
  webhooks
    .command('add')
    .description('register an endpoint; prints it with its signing secret (shown once) as one JSON line')
    .requiredOption('--client <id>', 'platform client id (from `clients create`)')
    .requiredOption('--url <url>', 'http or https URL the events are POSTed to')
    .option('--events <types>', 'event types separated by commas (default: every event)')
    .option('--database-url <url>', 'database (default ENGINE_DATABASE_URL or sqlite:./data/engine.db)')
    .action(
      lazy(
        () => import('./webhooks-command.js'),
        (m) => m.addWebhookCommand,
      ),
    );
  webhooks
    .command('list')
    .description('list endpoints, one JSON line each (never a secret)')
    .option('--client <id>', 'only this platform client')
    .option('--database-url <url>', 'database')
    .action(
      lazy(
        () => import('./webhooks-command.js'),
        (m) => m.listWebhooksCommand,
      ),
    );
  webhooks
    .command('remove')
    .description('remove an endpoint; its pending deliveries fail')
    .argument('<id>', 'endpoint id')
    .option('--database-url <url>', 'database')
    .action(
      lazy(
        () => import('./webhooks-command.js'),
        (m) => m.removeWebhookCommand,
      ),
    );
}
