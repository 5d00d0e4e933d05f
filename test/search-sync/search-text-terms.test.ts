/**
 * The text indexes are asked for a few of a query's terms, not all (engine/search/fewer-terms.ts):
 * rows holding the kept terms but not the dropped ones become candidates, and the exact test must
 * turn them away. Each query is held to the in-memory evaluator (matchesFilter, scoreRecord) on
 * both backends, page by page, over names built so that the kept and dropped trigrams disagree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  matchesFilter,
  parseSearchParams,
  runSearch,
  scoreRecord,
  type FieldType,
  type RunSearchOptions,
  type SearchHit,
  type SearchScope,
} from '../../engine/search/index.js';
import { openPostgresSearchBackend, openSqliteSearchBackend, type SearchBackend } from '../support/search-records.js';

const FIELDS: Record<string, FieldType> = { gid: 'string', name: 'string', assignee: 'object', tags: 'array' };
const SCOPE: SearchScope = { connectorId: 'terms', entity: 'tasks' };

/** Names that share the trigrams of "roadmap sprint" and "security audit" in every other arrangement. */
const NAMES = [
  'roadmap sprint',
  'ROADMAP SPRINT review',
  'sprint roadmap',
  'roadmap, sprint',
  'roadmapsprint',
  'road map sprint',
  'roadmap  sprint',
  'xroadmap sprintx',
  'roadmap sprints',
  'roadmap s print',
  'map sprint roadmap',
  'roadint',
  'security audit',
  'security audits done',
  'Security Audit',
  'securityaudit',
  'audit security',
  'insecurity audit',
  'security, audit',
  'sécurité audit',
  'roadmap sprint sécurité audit',
  'roadmap\tsprint',
  'the roadmap sprint',
  'ROADMAP   SPRINT',
  'map s',
  'é a-b c',
  'café au lait',
  'p  s',
  ' p s ',
];

const RECORDS = NAMES.map((name, i) => ({
  gid: `t${String(i).padStart(2, '0')}`,
  name,
  assignee: i % 3 === 0 ? { name: `Dee ${name}` } : i % 3 === 1 ? null : { name: 'Ann release' },
  tags: [name.split(' ')[0] ?? '', 'x', ...(i % 2 === 0 ? [name] : [])],
}));

const FILTERS: Record<string, unknown>[] = [
  { like: { name: '%roadmap sprint%' } },
  { like: { name: 'roadmap sprint%' } },
  { like: { name: '%roadmap sprint' } },
  { like: { name: 'roadmap sprint' } },
  { like: { name: '%road%print%' } },
  { like: { name: 'security audit%' } },
  { like: { name: '%curity aud%' } },
  { like: { name: '%sécurité audit%' } },
  { like: { 'assignee.name': 'dee roadmap sp%' } },
  { like: { tags: 'roadmap%' } },
  { like: { name: '%p s%' } },
  { like: { tags: '%p s%' } },
  { like: { name: '%é a%' } },
  { like: { name: '%é au l%' } },
  { like: { name: '%b c' } },
  { like: { name: '%roadmap\tsprint%' } },
  { like: { name: '% p s %' } },
  { fuzzy: { name: 'map sprnt' } },
  { and: [{ like: { name: '%roadmap sprint%' } }, { like: { name: '%security audit%' } }] },
  { or: [{ like: { name: '%roadmap sprint%' } }, { like: { name: 'security audit%' } }] },
];

/**
 * Ways to read: as worked out (PostgreSQL's first walk in id order covers these few records), and
 * with PostgreSQL's walks cut to one row, so the text index answers the rest.
 */
const READS: RunSearchOptions[] = [{}, { walkRows: { first: 1, budget: 0 } }];

/** Every hit of a query, two per page, cursor to cursor. */
async function allPages(backend: SearchBackend, filter: Record<string, unknown>, options: RunSearchOptions = {}): Promise<SearchHit[]> {
  const hits: SearchHit[] = [];
  let cursor: string | null = null;
  do {
    const page = await runSearch(backend.db, backend.dialect, SCOPE, parseSearchParams({ query: { filter }, limit: 2, cursor }, FIELDS), options);
    hits.push(...page.hits);
    cursor = page.next_cursor;
  } while (cursor);
  return hits;
}

/** What the evaluator says: matching records, best score first, then id. */
function expected(filter: Record<string, unknown>): Array<[string, number]> {
  const node = parseSearchParams({ query: { filter } }, FIELDS).filter;
  if (!node) throw new Error('a filter was expected');
  return RECORDS.filter((record) => matchesFilter(node, record))
    .map((record): [string, number] => [record.gid, scoreRecord(node, record)])
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

describe.each([
  ['sqlite', async () => openSqliteSearchBackend()],
  ['postgres', () => openPostgresSearchBackend()],
] as const)('like with a few index terms, %s', (_name, open) => {
  let backend: SearchBackend;

  beforeAll(async () => {
    backend = await open();
    await backend.upsert(SCOPE, RECORDS, 'gid');
  }, 60_000);
  afterAll(async () => backend?.close());

  it('answers exactly what the evaluator answers, in the same order, page by page', async () => {
    for (const filter of FILTERS) {
      for (const options of READS) {
        const hits = await allPages(backend, filter, options);
        expect({ filter, options, hits: hits.map((hit): [string, number] => [hit.id, hit.score]) }).toEqual({ filter, options, hits: expected(filter) });
      }
    }
  });

  it('answers the same when the index finds more candidates than a window lists (2,000), or fewer', async () => {
    const scope: SearchScope = { connectorId: 'terms', entity: 'dense' };
    const records = Array.from({ length: 3_000 }, (_, i) => ({
      gid: `d${String(i).padStart(4, '0')}`,
      // `alpha` is in 2,250 names: more candidates than a window lists; `gamma` in 750.
      name: [`alpha beta ${i}`, `beta alpha ${i}`, `alpha alphabet ${i}`, `gamma ${i}`][i % 4] as string,
    }));
    await backend.upsert(scope, records, 'gid');
    const filters: Record<string, unknown>[] = [
      { keyword: { name: 'alpha' } },
      { keyword: { name: 'alpha gamma' } },
      { like: { name: '%alpha%' } },
      { like: { name: 'beta alpha 1%' } },
      { like: { name: '%a 2999' } },
      { like: { name: '%gamma 1%' } },
      { fuzzy: { name: 'alpah' } },
    ];
    for (const filter of filters) {
      const node = parseSearchParams({ query: { filter } }, FIELDS).filter;
      if (!node) throw new Error('a filter was expected');
      const want = records
        .filter((record) => matchesFilter(node, record))
        .map((record): [string, number] => [record.gid, scoreRecord(node, record)])
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      for (const options of READS) {
        const hits: Array<[string, number]> = [];
        let cursor: string | null = null;
        do {
          const request = parseSearchParams({ query: { filter }, limit: 400, cursor }, FIELDS);
          const page = await runSearch(backend.db, backend.dialect, scope, request, options);
          hits.push(...page.hits.map((hit): [string, number] => [hit.id, hit.score]));
          cursor = page.next_cursor;
        } while (cursor);
        expect({ filter, options, hits }).toEqual({ filter, options, hits: want });
      }
    }
  });

  it('finds the phrase only where its words stand side by side', async () => {
    for (const options of READS) {
      const hits = await allPages(backend, { like: { name: '%roadmap sprint%' } }, options);
      expect(hits.map((hit) => hit.data.name)).toEqual([
        'roadmap sprint',
        'ROADMAP SPRINT review',
        'xroadmap sprintx',
        'roadmap sprints',
        'roadmap sprint sécurité audit',
        'the roadmap sprint',
      ]);
    }
  });
});
