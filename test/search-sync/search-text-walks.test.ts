import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchParams, runSearch, type FieldType, type RunSearchOptions, type SearchScope } from '../../engine/search/index.js';
import { evaluatorHits } from '../support/search-evaluator.js';
import { type SearchBackend, SEARCH_BACKENDS } from '../support/search-records.js';

/**
 * A filter that asks a text index is read in id order in parts that each decide where the next
 * begins: on SQLite, the candidates its bound index lists hold, sorted by id and tested until the
 * page is full (or, with too many to bind, a window and the rest); on PostgreSQL, a first walk,
 * then either a longer walk or the index for the rest, as the first walk's hits say. Whichever
 * parts run and wherever a page or a cursor falls among them, every page must be the reference
 * answer (scoreRecord; score desc, then id). The walk lengths are set small here so
 * that pages start, end and cross each part's edge everywhere in the data.
 */
const FIELDS: Record<string, FieldType> = { id: 'string', name: 'string', owner: 'object', tags: 'array', done: 'boolean' };
const SCOPE: SearchScope = { connectorId: 'walks', entity: 'rows' };

/** A small deterministic PRNG (mulberry32), so every run sees the same records. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['roadmap', 'sprint', 'security', 'audit', 'release', 'review', 'budget'];

/**
 * 400 records in four runs of ids: the phrases the filters look for are common in the first 60,
 * rare in the next 200, absent from the next 100 (their words still there, in other orders, so the
 * indexes offer them as candidates), and back at a few places in the last 40, the very last
 * record included. A few hold a value that is not a string where the filters look (its JSON text
 * would match). They are written in a shuffled order, so no storage order is the id order.
 */
const RECORDS: Array<Record<string, unknown> & { id: string }> = (() => {
  const next = random(7);
  const pick = () => WORDS[Math.floor(next() * WORDS.length)] as string;
  const odd: Record<number, Record<string, unknown>> = {
    3: { name: true },
    70: { name: { roadmap: 'sprint release' } },
    365: { owner: { name: ['dee release'] } },
  };
  return Array.from({ length: 400 }, (_, i) => {
    const share = i < 60 ? 0.6 : i < 260 ? 0.04 : i < 360 ? 0 : i % 9 === 0 || i === 399 ? 1 : 0;
    const phrase = next() < share ? ['roadmap sprint', 'security audit', 'Dee release'][i % 3] : `${pick()} ${pick()}`;
    const name = i % 3 === 1 && phrase === 'security audit' ? `${phrase} ${pick()}` : `${pick()} ${phrase} ${pick()}`;
    return {
      id: `r${String(i).padStart(3, '0')}`,
      name: i % 5 === 0 ? name.toUpperCase() : name,
      owner: i % 7 === 0 ? null : { name: next() < share ? 'Dee release' : `Dee ${pick()}` },
      tags: [pick(), ...(next() < share ? ['roadmap sprint'] : [])],
      done: i % 2 === 0,
      ...odd[i],
    };
  });
})();

/** The records in a shuffled order (the order they are written in). */
const WRITTEN = (() => {
  const next = random(11);
  return RECORDS.map((record) => ({ record, key: next() }))
    .sort((a, b) => a.key - b.key)
    .map(({ record }) => record);
})();

const FILTERS: unknown[] = [
  { like: { name: '%roadmap sprint%' } },
  { like: { name: 'security audit%' } },
  { like: { 'owner.name': 'dee rel%' } },
  { like: { tags: 'roadmap sprint' } },
  { like: { name: '%zzz qqq%' } },
  { like: { name: '%e%' } },
  { and: [{ like: { name: '%roadmap sprint%' } }, { eq: { done: true } }] },
  { and: [{ like: { name: '%roadmap%' } }, { like: { 'owner.name': 'dee rel%' } }] },
  { or: [{ like: { name: '%roadmap sprint%' } }, { like: { name: '%security audit%' } }] },
  { or: [{ like: { name: '%roadmap sprint%' } }, { eq: { done: true } }] },
  { and: [{ keyword: { name: 'audit' } }, { not: { like: { name: '%sprint%' } } }] },
  { eq: { 'owner.name': 'Dee release' } },
  { in: { tags: ['roadmap sprint', 'nothing'] } },
  { fuzzy: { name: 'roadmap sprnt' } },
];

/** How each backend's parts are sized: PostgreSQL's walks (first rows, most rows after), SQLite's bound lists (or none). */
const PLANS: Array<{ label: string; options: RunSearchOptions }> = [
  { label: 'as worked out', options: {} },
  { label: 'walks 1 then up to 1, lists unbound', options: { walkRows: { first: 1, budget: 1 }, indexListMost: 0 } },
  { label: 'walks 4 then up to 12, lists up to 40', options: { walkRows: { first: 4, budget: 12 }, indexListMost: 40 } },
  { label: 'walks 10 then up to 400', options: { walkRows: { first: 10, budget: 400 } } },
  { label: 'walks 30 then none, lists up to 3', options: { walkRows: { first: 30, budget: 0 }, indexListMost: 3 } },
];

/** The reference: matching records, best score first, then id. */
function reference(filter: unknown): string[] {
  return evaluatorHits(filter, FIELDS, RECORDS).map(([id, score]) => `${id}:${score.toFixed(6)}`);
}

describe.each(SEARCH_BACKENDS)('id-ordered reads that ask a text index on $name', ({ open }) => {
  let backend: SearchBackend;
  beforeAll(async () => {
    backend = await open();
    await backend.upsert(SCOPE, WRITTEN, 'id');
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  /** Every hit of a filter, `size` per page, cursor to cursor; each page but the last is full. */
  async function pages(filter: unknown, size: number, options: RunSearchOptions): Promise<string[]> {
    const hits: string[] = [];
    let cursor: string | null = null;
    do {
      const request = parseSearchParams({ query: { filter }, limit: size, cursor }, FIELDS);
      const page = await runSearch(backend.db, backend.dialect, SCOPE, request, options);
      if (page.next_cursor) expect(page.hits).toHaveLength(size);
      hits.push(...page.hits.map((hit) => `${hit.id}:${hit.score.toFixed(6)}`));
      cursor = page.next_cursor;
    } while (cursor && hits.length <= RECORDS.length);
    return hits;
  }

  it('the data has filters that match everywhere, nowhere, and in runs of every density', () => {
    const counts = FILTERS.map((filter) => reference(filter).length);
    expect(counts).toContain(0);
    expect(Math.max(...counts)).toBeGreaterThan(300);
    expect(counts.filter((count) => count > 10 && count < 120).length).toBeGreaterThan(5);
  });

  it('answers every filter as the reference, page by page, however its parts are sized', async () => {
    for (const filter of FILTERS) {
      const expected = reference(filter);
      for (const { label, options } of PLANS) {
        for (const size of [3, 8, 100]) {
          expect(await pages(filter, size, options), `${JSON.stringify(filter)} by ${size}, ${label}`).toEqual(expected);
        }
      }
    }
  }, 240_000);
});
