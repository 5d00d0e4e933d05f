/** Past this many pending characters the lines are written at once instead of at the end of the turn. */
const MAX_PENDING = 64 * 1024;

/** Where the lines go: process.stdout, whose writes to files and pipes are synchronous on Linux (Node's process I/O notes). */
interface LineSink {
  write(text: string): unknown;
}

/**
 * The service's log destination: the lines of one event-loop turn go to stdout in one write.
 * pino's default writes each line with its own write(2), one per request at `info`; under load a
 * turn ends several requests, and every write also wakes whatever reads the log. Lines are only
 * held until the turn's check phase (setImmediate), and written at once on process exit (SIGTERM
 * goes through process.exit in the serve command), so nothing logged is lost on a clean stop.
 */
export class BatchedLogStream {
  private pending = '';
  private scheduled = false;
  private readonly flushSoon = (): void => this.flush();

  constructor(private readonly sink: LineSink = process.stdout) {
    process.on('exit', this.flushSoon);
  }

  /** Takes one line as pino writes it (newline included). */
  write(line: string): void {
    this.pending += line;
    if (this.pending.length >= MAX_PENDING) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushSoon);
    }
  }

  /** Writes what is pending now; pino calls it from logger.flush(cb). */
  flush(callback?: (error?: Error) => void): void {
    this.scheduled = false;
    if (this.pending !== '') {
      const text = this.pending;
      this.pending = '';
      this.sink.write(text);
    }
    callback?.();
  }
}
