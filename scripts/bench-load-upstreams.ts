/**
 * The sync-load benchmark's upstreams, in a process of their own (as real upstreams are): a
 * HubSpot fake with a large copy to sync, and the rest of the sandbox (the Asana file to
 * download). Prints one JSON line `{ upstreams, largeAttachment }`, then serves until its stdin
 * closes (the benchmark ending, or dying).
 *
 * Run by scripts/bench-sync-load.ts: node dist/scripts/bench-load-upstreams.js <hubspot records>
 */
import { startHubspotFake, startSandbox } from '../engine/sandbox/index.js';

const records = Number(process.argv[2] ?? 20_000);
// Only HubSpot is large: the other fakes' data would only slow the start.
const sandbox = await startSandbox({ rateLimits: false });
const hubspot = await startHubspotFake({ records, rateLimits: false });
const upstreams = { ...sandbox.upstreams, hubspot: hubspot.describe() };
process.stdout.write(`${JSON.stringify({ upstreams, largeAttachment: sandbox.fakes.asana.anchors.attachments.large })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void Promise.all([sandbox.close(), hubspot.close()]).then(() => process.exit(0));
});
