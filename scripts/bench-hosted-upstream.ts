/**
 * The hosted benchmark's upstream, in a process of its own (as a real upstream is): the HubSpot
 * fake with its rate limits off. Prints one JSON line (its UpstreamInfo), then serves until its
 * stdin closes (the benchmark ending, or dying).
 *
 * Run by scripts/bench-hosted.ts: node dist/scripts/bench-hosted-upstream.js
 */
import { startHubspotFake } from '../engine/sandbox/index.js';

const hubspot = await startHubspotFake({ rateLimits: false });
// The fake keeps every exchange for tests to read; over a long run that log would be the only
// thing growing, and its garbage would land on whichever side is measured at the time.
const clearing = setInterval(() => hubspot.clearRequests(), 1000);
process.stdout.write(`${JSON.stringify(hubspot.describe())}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  clearInterval(clearing);
  void hubspot.close().then(() => process.exit(0));
});
