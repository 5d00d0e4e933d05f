/**
 * Starts `start(port)` on a port `probe` found free (it binds one and closes it again). Another
 * process, such as a second copy of the suite, may take that port before `start` binds it: then
 * a new port is probed, up to five times.
 */
export async function startOnFreedPort<T>(probe: () => Promise<number>, start: (port: number) => Promise<T>): Promise<{ port: number; started: T }> {
  for (let attempt = 1; ; attempt++) {
    const port = await probe();
    try {
      return { port, started: await start(port) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw error;
    }
  }
}
