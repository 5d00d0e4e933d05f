/** Past this many pending characters the lines are written at once instead of when the timer fires. */
const MAX_PENDING = 64 * 1024;
/** The longest a line waits for the write that carries it. */
const LOG_BATCH_MS = 20;

/** Where the lines go: process.stdout, whose writes to files and pipes are synchronous on Linux (Node's process I/O notes). */
interface LineSink {
  write(text: string): unknown;
}

/**
 * The service's log destination: lines go to stdout in batches, one write at most every
 * LOG_BATCH_MS (or at 64 KiB). pino's default writes each line with its own write(2), one per
 * request at `info`; every write also wakes whatever reads the log. A batch per event-loop turn
 * (before) still wrote once per one or two requests under load, and that write cost as much CPU
 * as parsing the upstream's answer; over 20 ms a loaded server gathers tens of lines. Lines are
 * written at once on process exit (SIGTERM goes through process.exit in the serve command, and
 * an uncaught exception exits through 'exit' too), so nothing logged is lost on a stop or a
 * crash of the code; a SIGKILL loses at most the last 20 ms.
 */
export class BatchedLogStream {
  private pending = '';
  private timer: NodeJS.Timeout | undefined;
  private readonly flushSoon = (): void => this.flush();

  constructor(private readonly sink: LineSink = process.stdout) {
    process.on('exit', this.flushSoon);
  }

  /** Takes one line as pino writes it (newline included). */
  write(line: string): void {
    this.pending += line;
    if (this.pending.length >= MAX_PENDING) this.flush();
    else if (this.timer === undefined) {
      // Unref'd: a pending batch never holds the process open ('exit' writes it).
      this.timer = setTimeout(this.flushSoon, LOG_BATCH_MS).unref();
    }
  }

  /** Writes what is pending now; pino calls it from logger.flush(cb). */
  flush(callback?: (error?: Error) => void): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending !== '') {
      const text = this.pending;
      this.pending = '';
      this.sink.write(text);
    }
    callback?.();
  }
}
