import { InvalidParamsError, type ErrorDetail } from '../errors.js';

const MAX_PROBLEMS = 50;

/**
 * Collects every problem of one request before failing, so the caller fixes them all in one go;
 * the list is capped so that a huge bad request cannot make a huge error.
 */
export class Problems {
  private readonly details: ErrorDetail[] = [];

  /** Records a problem at a JSON-pointer path. */
  add(path: string, message: string): void {
    if (this.details.length < MAX_PROBLEMS) this.details.push({ path: path || '/', message });
  }

  get count(): number {
    return this.details.length;
  }

  /** Throws INVALID_PARAMS listing every problem, if there is any. */
  throwIfAny(): void {
    if (this.details.length === 0) return;
    const first = this.details[0] as ErrorDetail;
    const more = this.details.length > 1 ? ` (and ${this.details.length - 1} more)` : '';
    throw new InvalidParamsError(`Invalid search params: ${first.path} ${first.message}${more}`, { details: [...this.details] });
  }
}

/** Escapes one JSON-pointer segment (RFC 6901), so field names with `/` or `~` still locate exactly. */
export function pointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** True for a plain JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short, bounded rendering of a caller's value for error messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
