import type { Connection } from '../../engine/index.js';

export type Rec = Record<string, unknown>;

/**
 * Every record read through a connection, by `entity.action`, so that field tables can be
 * checked afterwards against everything that was read (a record read twice counts twice).
 */
export class RecordBook {
  private readonly read = new Map<string, Rec[]>();

  /** The records read for `entity.action` (empty when none was). */
  records(entity: string, action: string): Rec[] {
    return this.read.get(`${entity}.${action}`) ?? [];
  }

  add(entity: string, action: string, records: readonly Rec[]): void {
    const key = `${entity}.${action}`;
    this.read.set(key, [...(this.read.get(key) ?? []), ...records]);
  }
}

/** Reads through one connection into a shared book: every page of a list, or one record. */
export class Walk {
  constructor(
    readonly connection: Connection,
    readonly book: RecordBook,
  ) {}

  /** Every record of every page of a list-like action. */
  async list(entity: string, params: Rec = {}, action = 'list'): Promise<Rec[]> {
    const out: Rec[] = [];
    for await (const record of this.connection.records(entity, action, params)) out.push(record as Rec);
    this.book.add(entity, action, out);
    return out;
  }

  /** One record through `get`. */
  async get(entity: string, params: Rec): Promise<Rec> {
    const { data } = await this.connection.execute(entity, 'get', params);
    const record = data as Rec;
    this.book.add(entity, 'get', [record]);
    return record;
  }
}

/** `fn` over every item at once (the connection's own concurrency limit spaces the requests). */
export async function each<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  return Promise.all(items.map(fn));
}

/**
 * One line per field that some record lacks: "`label` field: absent in N of M". A field whose
 * value is null is present; only a missing key counts.
 */
export function absences(label: string, records: readonly Rec[], fields: readonly string[]): string[] {
  const lines: string[] = [];
  for (const field of fields) {
    const absent = records.filter((record) => !Object.hasOwn(record, field)).length;
    if (absent > 0) lines.push(`${label} ${field}: absent in ${absent} of ${records.length}`);
  }
  return lines;
}
