import type Database from 'better-sqlite3';
import type { Clock } from '../clock/index.js';
import type { ConnectAuthorization, ConnectRecords, ConnectSessionRow, NewConnectSession, OAuthAppInfo, StoredOAuthApp } from './connect-records.js';

type SessionDbRow = Omit<ConnectSessionRow, 'connector_types' | 'state_config'> & { connector_types: string | null; state_config: string | null };

/** The OAuth apps and connect sessions on one SQLite connection (sync statements; the writes are one row each). */
export class SqliteConnectRecords implements ConnectRecords {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock,
  ) {}

  async setOAuthApp(app: Omit<StoredOAuthApp, 'updated_at'>): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO oauth_apps (connector_type, client_id, secret_ciphertext, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (connector_type) DO UPDATE SET client_id = excluded.client_id, secret_ciphertext = excluded.secret_ciphertext, updated_at = excluded.updated_at`,
      )
      .run(app.connector_type, app.client_id, app.secret_ciphertext, new Date(this.clock.now()).toISOString());
  }

  async findOAuthApp(connectorType: string): Promise<StoredOAuthApp | undefined> {
    return this.db.prepare('SELECT * FROM oauth_apps WHERE connector_type = ?').get(connectorType) as StoredOAuthApp | undefined;
  }

  async listOAuthApps(): Promise<OAuthAppInfo[]> {
    return this.db.prepare('SELECT connector_type, client_id, updated_at FROM oauth_apps ORDER BY connector_type').all() as OAuthAppInfo[];
  }

  async removeOAuthApp(connectorType: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM oauth_apps WHERE connector_type = ?').run(connectorType).changes === 1;
  }

  async createSession(session: NewConnectSession): Promise<void> {
    this.db
      .prepare('INSERT INTO connect_sessions (id, client_id, external_user_id, connector_types, return_url, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(
        session.id,
        session.client_id,
        session.external_user_id,
        session.connector_types ? JSON.stringify(session.connector_types) : null,
        session.return_url,
        session.expires_at,
      );
  }

  async findSession(id: string): Promise<ConnectSessionRow | undefined> {
    const row = this.db.prepare('SELECT * FROM connect_sessions WHERE id = ?').get(id) as SessionDbRow | undefined;
    return (
      row && {
        ...row,
        connector_types: row.connector_types === null ? null : (JSON.parse(row.connector_types) as string[]),
        state_config: row.state_config === null ? null : (JSON.parse(row.state_config) as Record<string, unknown>),
      }
    );
  }

  async startAuthorization(id: string, authorization: ConnectAuthorization): Promise<boolean> {
    const sql = `UPDATE connect_sessions SET state_type = ?, state_nonce = ?, verifier_ciphertext = ?, state_config = ?, state_used_at = NULL
                 WHERE id = ? AND completed_at IS NULL`;
    const { state_type, state_nonce, verifier_ciphertext, state_config } = authorization;
    return this.db.prepare(sql).run(state_type, state_nonce, verifier_ciphertext, JSON.stringify(state_config), id).changes === 1;
  }

  async useState(id: string, nonce: string, now: number): Promise<boolean> {
    const sql = 'UPDATE connect_sessions SET state_used_at = ? WHERE id = ? AND state_nonce = ? AND state_used_at IS NULL';
    return this.db.prepare(sql).run(now, id, nonce).changes === 1;
  }

  async claim(id: string, now: number): Promise<boolean> {
    return this.db.prepare('UPDATE connect_sessions SET completed_at = ? WHERE id = ? AND completed_at IS NULL').run(now, id).changes === 1;
  }

  async release(id: string): Promise<void> {
    this.db.prepare('UPDATE connect_sessions SET completed_at = NULL WHERE id = ? AND connector_id IS NULL').run(id);
  }

  async complete(id: string, connectorId: string): Promise<void> {
    this.db.prepare('UPDATE connect_sessions SET connector_id = ? WHERE id = ?').run(connectorId, id);
  }
}
