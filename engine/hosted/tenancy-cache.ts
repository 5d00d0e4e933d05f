import type { ConnectorRow, Store, Tenant } from '../store/index.js';

/** The most entries of each kind kept; past it the kind starts over empty (a flood of ids cannot grow memory without bound). */
const MAX_ENTRIES = 10_000;

/**
 * What the scoped routes looked up per request, kept until the store's tenancy mark moves: that a
 * platform client is live (not revoked), and a tenant's connector row. The mark moves on every
 * write to clients, connectors or credentials, in this process or another on the same database
 * (Store.tenancyMark), and then everything kept is dropped: a revocation, a PATCH, a DELETE or a
 * rotated OAuth token is seen by the very next request, of this process or another (see
 * Store.tenancyMark; on PostgreSQL the mark is a read, so these answers may be promises). Connectors are kept under their tenant
 * and id together, so another tenant asking for the same id never reaches an entry (it looks up,
 * and gets nothing, as before). Only positive answers are kept: unknown ids cost a lookup each.
 * Kept rows are shared between requests: readers never change them.
 */
export class TenancyCache {
  /** The newest mark seen (marks only grow; on PostgreSQL reads may answer out of order). */
  private mark = -1;
  private readonly liveClients = new Set<string>();
  private readonly connectors = new Map<string, ConnectorRow>();

  constructor(private readonly store: Store) {}

  /**
   * Whether the platform client exists and is not revoked. Answers the mark it was checked under
   * too: the request's later lookups pass it to {@link connector}, so a request reads the mark once.
   */
  async clientIsLive(clientId: string): Promise<{ live: boolean; mark: number }> {
    const mark = await this.current();
    if (this.liveClients.has(clientId)) return { live: true, mark };
    const client = await this.store.findClient(clientId);
    const live = client !== undefined && !client.revoked_at;
    if (live && (await this.unchangedSince(mark))) bounded(this.liveClients).add(clientId);
    return { live, mark };
  }

  /**
   * The tenant's connector with that id, as Store.getConnector answers it: the kept row itself
   * (no promise: every scoped request asks), or a promise of the lookup. `checked` is the mark
   * this request's authentication read: while it is still the one kept, the store is not asked
   * again (a change committed since then is one this request may not see, as if it had been
   * committed a moment later; the next request sees it).
   */
  connector(tenant: Tenant, id: string, checked?: number): ConnectorRow | Promise<ConnectorRow | undefined> {
    // NUL cannot occur in ids or tenant names (the URL and body checks refuse it), so the key is unambiguous.
    const key = `${tenant.clientId}\u0000${tenant.externalUserId}\u0000${id}`;
    if (checked !== undefined && checked === this.mark) return this.connectors.get(key) ?? this.lookUp(tenant, id, key, checked);
    const mark = this.current();
    if (typeof mark !== 'number') return mark.then((now) => this.connectors.get(key) ?? this.lookUp(tenant, id, key, now));
    return this.connectors.get(key) ?? this.lookUp(tenant, id, key, mark);
  }

  private async lookUp(tenant: Tenant, id: string, key: string, mark: number): Promise<ConnectorRow | undefined> {
    const row = await this.store.getConnector(tenant, id);
    if (row && (await this.unchangedSince(mark))) bounded(this.connectors).set(key, row);
    return row;
  }

  /**
   * The store's mark now when the client is known live under it (the authenticator's fast path on
   * every request: without a promise on SQLite), undefined when it is not known live, which sends
   * the caller to {@link clientIsLive}.
   */
  liveMark(clientId: string): number | undefined | Promise<number | undefined> {
    const mark = this.current();
    if (typeof mark !== 'number') return mark.then((now) => (this.liveClients.has(clientId) ? now : undefined));
    return this.liveClients.has(clientId) ? mark : undefined;
  }

  /** The store's mark now, dropping everything kept under an older one. */
  private current(): number | Promise<number> {
    const mark = this.store.tenancyMark();
    return typeof mark === 'number' ? this.moveTo(mark) : mark.then((now) => this.moveTo(now));
  }

  private moveTo(mark: number): number {
    if (mark > this.mark) {
      this.mark = mark;
      this.liveClients.clear();
      this.connectors.clear();
    }
    return this.mark;
  }

  /** Whether nothing changed while a lookup ran: a row read before a change that was heard meanwhile must not be kept. */
  private unchangedSince(mark: number): boolean | Promise<boolean> {
    const now = this.current();
    return typeof now === 'number' ? now === mark : now.then((later) => later === mark);
  }
}

/** The collection, emptied first when it is full. */
function bounded<T extends { size: number; clear(): void }>(collection: T): T {
  if (collection.size >= MAX_ENTRIES) collection.clear();
  return collection;
}
