/**
 * fast-check generators of hostile values for the hosted API fuzz: text with U+0000, lone
 * surrogates, emoji and JSON/URL metacharacters; JSON values of any shape; JSON texts too deep,
 * too wide or broken; and search filters, valid and not, over a connector's searchable fields.
 */
import fc from 'fast-check';

/** Characters that have broken parsers before: NUL, both halves of a surrogate pair alone, quotes, escapes. */
const UNITS = [
  'a',
  'Z',
  '0',
  '9',
  ' ',
  '"',
  "'",
  '\\',
  '/',
  '%',
  '.',
  '_',
  '-',
  '~',
  '\u0000',
  '\u0001',
  '\n',
  '\ud800',
  '\udc00',
  '\u{1F600}',
  '\u00e9',
  '\u4e2d',
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  '?',
  '#',
  '&',
  '=',
];

/** Short text, mostly letters, sometimes hostile. */
export const text = (maxLength = 12): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...UNITS), maxLength });

/** Text that is sometimes far longer than any field allows. */
export const longText = (): fc.Arbitrary<string> =>
  fc.oneof({ arbitrary: text(20), weight: 4 }, { arbitrary: fc.integer({ min: 100, max: 5000 }).map((n) => 'x'.repeat(n)), weight: 1 });

const scalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(0, -0, 1e308, -1e308, 2 ** 53 + 1, 0.5, 1e-300),
  text(),
);

/** Any JSON value, a few levels deep, keys hostile too. */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text(8), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A JSON object of any content (what `params`, `config` and `credentials` should be). */
export const jsonObject: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(text(10), jsonValue, { maxKeys: 5 });

const repeatJoin = (count: number, make: (i: number) => string) => Array.from({ length: count }, (_, i) => make(i)).join(',');

/**
 * JSON texts built to hurt: nesting from just over to far over the limit, objects and arrays with
 * too many members, broken syntax, prototype keys, lone surrogates written as escapes. `wrap`
 * places the hostile value inside an otherwise plausible body.
 */
export const hostileJsonText = (wrap: (inner: string) => string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.integer({ min: 60, max: 100_000 }).map((depth) => wrap(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
    fc.integer({ min: 60, max: 20_000 }).map((depth) => wrap(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)),
    fc.integer({ min: 900, max: 90_000 }).map((count) => wrap(`{${repeatJoin(count, (i) => `"k${i}":${i}`)}}`)),
    fc.integer({ min: 9_000, max: 60_000 }).map((count) => wrap(`[${repeatJoin(count, (i) => String(i % 10))}]`)),
    fc
      .constantFrom(
        '{"__proto__":{"polluted":true}}',
        '{"constructor":{"prototype":{"polluted":true}}}',
        '"\\ud800"',
        '{"\\udc00":1}',
        '"a\\u0000b"',
        '[1,2',
        '{"a":}',
        'nul',
        '\ufeff{}',
        '1e99999',
        '"\\x41"',
      )
      .map(wrap),
    fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\\', 'a', '1', ' '), maxLength: 40 }).map(wrap),
  );

/** The searchable fields of HubSpot contacts and their types (connectors/hubspot.yaml). */
const CONTACT_FIELDS = [
  'archived',
  'companies',
  'createdAt',
  'id',
  'properties',
  'updatedAt',
  'properties.email',
  'properties.firstname',
  'properties.lastname',
];
const field = fc.oneof({ arbitrary: fc.constantFrom(...CONTACT_FIELDS), weight: 5 }, { arbitrary: text(10), weight: 1 });
const OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'like', 'fuzzy', 'keyword'];

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.tuple(fc.constantFrom(...OPS), field, scalar).map(([op, name, value]) => ({ [op]: { [name]: op === 'in' ? [value] : value } })),
  fc
    .tuple(field, fc.integer({ min: 0, max: 1100 }), scalar)
    .map(([name, size, value]) => ({ in: { [name]: Array.from({ length: size }, (_, i) => (typeof value === 'string' ? `${value}${i}` : value)) } })),
  fc
    .tuple(fc.constantFrom('like', 'fuzzy', 'keyword'), fc.constantFrom('properties.email', 'properties.firstname', 'id'), longText())
    .map(([op, name, value]) => ({ [op]: { [name]: value } })),
  jsonValue,
);

/** Search filters: mostly well-formed trees over the real fields, sometimes anything at all. */
export const searchFilter: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { minLength: 0, maxLength: 4 }).map((nodes) => ({ and: nodes })),
    fc.array(tie('node'), { minLength: 0, maxLength: 4 }).map((nodes) => ({ or: nodes })),
    tie('node').map((node) => ({ not: node })),
  ),
})).node;

/** The params of `search`: query, limit, fields and cursor, right and wrong. */
export const searchParams: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      query: fc.record(
        { filter: searchFilter, sort: fc.array(fc.dictionary(field, fc.constantFrom('asc', 'desc', 'up'), { minKeys: 1, maxKeys: 2 }), { maxLength: 6 }) },
        { requiredKeys: [] },
      ),
      limit: fc.oneof(fc.integer({ min: 1, max: 10_000 }), fc.constantFrom(0, 10_001, -1, 1.5, '10')),
      fields: fc.array(field, { maxLength: 6 }),
      cursor: fc.oneof(text(20), fc.constantFrom('eyJoIjoieCIsImsiOlsiYVx1MDAwMCJdfQ', '')),
    },
    { requiredKeys: ['query'] },
  ),
  jsonValue,
);
