import { InvalidParamsError, type ErrorDetail } from '../errors.js';

const MAX_PROBLEMS = 50;

/**
 * Collects every problem of one request before failing, so the caller fixes them all in one go;
 * the list is capped so that a huge bad request cannot make a huge error.
 */
export class Problems {
  private readonly details: ErrorDetail[] = [];
  private total = 0;

  /** Records a problem at a JSON-pointer path (counted always, kept while the list is short). */
  add(path: string, message: string): void {
    this.total++;
    if (this.details.length < MAX_PROBLEMS) this.details.push({ path: path || '/', message });
  }

  get count(): number {
    return this.total;
  }

  /** Throws INVALID_PARAMS listing the problems (the ones beyond the list as a count), if there is any. */
  throwIfAny(): void {
    if (this.total === 0) return;
    const first = this.details[0] as ErrorDetail;
    const more = this.total > 1 ? ` (and ${this.total - 1} more)` : '';
    throw new InvalidParamsError(`Invalid search params: ${first.path} ${first.message}${more}`, { details: [...this.details], detailsTotal: this.total });
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

const PREVIEW_LENGTH = 60;

/**
 * A short, bounded rendering of a caller's value for error messages: its JSON, cut at 60
 * characters. The value is written only as far as the cut, so its size and depth cost nothing
 * (JSON.stringify of a 100,000-deep value overflows the stack).
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const out: string[] = [];
  let length = 0;
  const write = (text: string) => {
    out.push(text);
    length += text.length;
    return length <= PREVIEW_LENGTH;
  };
  preview(value, write);
  const text = out.join('');
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 3)}...` : text;
}

/** Writes JSON of `value` until `write` says the preview is long enough; false then. */
function preview(value: unknown, write: (text: string) => boolean): boolean {
  if (typeof value === 'string') return write(JSON.stringify(value.slice(0, PREVIEW_LENGTH)));
  if (Array.isArray(value)) {
    if (!write('[')) return false;
    for (let i = 0; i < value.length; i++) {
      if ((i > 0 && !write(',')) || !preview(value[i] ?? null, write)) return false;
    }
    return write(']');
  }
  if (isPlainObject(value)) {
    if (!write('{')) return false;
    let first = true;
    for (const key in value) {
      if (!Object.hasOwn(value, key) || value[key] === undefined) continue;
      if ((!first && !write(',')) || !write(`${JSON.stringify(key.slice(0, PREVIEW_LENGTH))}:`) || !preview(value[key], write)) return false;
      first = false;
    }
    return write('}');
  }
  return write(JSON.stringify(value) ?? String(value));
}
