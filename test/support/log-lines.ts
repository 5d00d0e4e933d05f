import { Writable } from 'node:stream';

/** A stream a service logs into, and the lines it received: tests read logs instead of stdout. */
export function logLines(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, lines };
}
