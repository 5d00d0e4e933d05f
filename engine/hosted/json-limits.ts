import type { ErrorDetail } from '../errors.js';

/**
 * Bounds on the shape of one JSON request body, checked on the raw text before it is parsed, so
 * that no later step (JSON.parse, schema validation, structuredClone, error rendering) meets a
 * value that overflows the stack or takes long to walk. Measured on Node 20 (2 cores): an object
 * of 80,000 keys costs ~50 ms to parse, ~60 ms to validate and ~170 ms to clone, while 1,000
 * keys cost under 1 ms each; 50,000 small values in all stay under ~50 ms end to end.
 * The largest legitimate bodies are far inside these: a search filter nests at most 10 operator
 * levels (about 25 JSON levels) with `in` lists of at most 1,000 values (SEARCH_LIMITS).
 */
export const JSON_BODY_LIMITS = {
  /** Nesting of objects and arrays (the body itself is level 1). */
  maxDepth: 64,
  /** Members of one object. */
  maxObjectMembers: 1000,
  /** Elements of one array. */
  maxArrayItems: 10_000,
  /** Values in the whole body (members and elements together, counted by their separators). */
  maxValues: 50_000,
} as const;

interface Frame {
  array: boolean;
  /** Members (objects) or elements (arrays) begun so far. */
  count: number;
  /** Offsets of the raw string literal of the current member's key. */
  keyStart: number;
  keyEnd: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/**
 * Scans raw JSON text in one pass, without recursion, and returns the first limit it breaks as a
 * located problem (a JSON pointer to the object or array at fault), or undefined. It does not
 * check the syntax: JSON.parse does that afterwards, on text now known to be cheap to parse.
 */
export function findJsonLimitProblem(text: string, limits = JSON_BODY_LIMITS): ErrorDetail | undefined {
  const frames: Frame[] = [];
  let values = 0;
  let stringStart = -1;
  let stringEnd = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = frames[frames.length - 1];
    // The first element of an array counts like the ones after commas do.
    if (top?.array && top.count === 0 && c > 0x20 && c !== CLOSE_ARRAY) top.count = 1;
    if (c === QUOTE) {
      stringStart = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
      stringEnd = i;
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (frames.length >= limits.maxDepth) return { path: pointer(text, frames), message: `nests deeper than ${limits.maxDepth} levels` };
      if (++values > limits.maxValues) return { path: pointer(text, frames), message: `is where the body passes ${limits.maxValues} values` };
      frames.push({ array: c === OPEN_ARRAY, count: 0, keyStart: -1, keyEnd: -1 });
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      frames.pop();
    } else if (top && !top.array && c === COLON) {
      top.keyStart = stringStart;
      top.keyEnd = stringEnd;
      if (++top.count > limits.maxObjectMembers)
        return { path: pointer(text, frames.slice(0, -1)), message: `has more than ${limits.maxObjectMembers} members` };
    } else if (top && c === COMMA) {
      if (top.array) top.count++;
      if (++values > limits.maxValues) return { path: pointer(text, frames), message: `is where the body passes ${limits.maxValues} values` };
      if (top.array && top.count > limits.maxArrayItems)
        return { path: pointer(text, frames.slice(0, -1)), message: `has more than ${limits.maxArrayItems} items` };
    }
  }
  return undefined;
}

/** The JSON pointer (RFC 6901) of the value the frames lead to. */
function pointer(text: string, frames: readonly Frame[]): string {
  if (frames.length === 0) return '/';
  return frames.map((frame) => `/${frame.array ? Math.max(frame.count - 1, 0) : escapeSegment(keyOf(text, frame))}`).join('');
}

function keyOf(text: string, frame: Frame): string {
  if (frame.keyStart < 0) return '';
  // Keys are clipped before decoding: a path only needs to be recognisable, and a key may be huge.
  const raw = text.slice(frame.keyStart, Math.min(frame.keyEnd + 1, frame.keyStart + 200));
  try {
    return JSON.parse(raw.endsWith('"') && raw.length > 1 ? raw : `${raw.replace(/\\+$/, '')}"`) as string;
  } catch {
    return raw.slice(1);
  }
}

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
