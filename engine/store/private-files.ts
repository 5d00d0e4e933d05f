import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Owner-only modes: the database and the key file hold encrypted credentials and the key itself. */
export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` (and missing parents) owner-only. mkdir's mode is filtered by the umask, so each
 * directory this call created is chmod-ed afterwards; directories that already existed are the
 * operator's and keep their mode.
 */
export function ensurePrivateDirectory(dir: string): void {
  const target = resolve(dir);
  const first = mkdirSync(target, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  if (first === undefined) return;
  for (let current = target; ; current = dirname(current)) {
    chmodSync(current, PRIVATE_DIRECTORY_MODE);
    if (current === first || dirname(current) === current) break;
  }
}

/**
 * Creates `path` empty with mode 0600 when it does not exist yet, whatever the umask (open's mode
 * is filtered by it, fchmod is not), so that SQLite, which opens an existing file as it finds it
 * and gives its -wal and -shm files the database file's mode, never makes a world-readable copy.
 * An existing file keeps its mode.
 */
export function ensurePrivateFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
}
