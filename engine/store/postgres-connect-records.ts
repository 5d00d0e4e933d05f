import type pg from 'pg';
import type { Clock } from '../clock/index.js';
import type { ConnectAuthorization, ConnectRecords, ConnectSessionRow, NewConnectSession, OAuthAppInfo, StoredOAuthApp } from './connect-records.js';

type SessionDbRow = Omit<ConnectSessionRow, 'expires_at' | 'state_used_at' | 'completed_at'> & {
  expires_at: string;
  state_used_at: string | null;
  completed_at: string | null;
};
type AppDbRow = Omit<StoredOAuthApp, 'updated_at'> & { updated_at: Date };

/** pg answers bigint as text (it may exceed 2^53); epoch ms never does. */
function epochMs(value: string | null): number | null {
  return value === null ? null : Number(value);
}

/** The OAuth apps and connect sessions on a PostgreSQL pool; each change is one conditional statement. */
export class PostgresConnectRecords implements ConnectRecords {
  constructor(
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
  ) {}

  async setOAuthApp(app: Omit<StoredOAuthApp, 'updated_at'>): Promise<void> {
    await this.pool.query(
      `INSERT INTO oauth_apps (connector_type, client_id, secret_ciphertext, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (connector_type) DO UPDATE SET client_id = excluded.client_id, secret_ciphertext = excluded.secret_ciphertext, updated_at = excluded.updated_at`,
      [app.connector_type, app.client_id, app.secret_ciphertext, new Date(this.clock.now()).toISOString()],
    );
  }

  async findOAuthApp(connectorType: string): Promise<StoredOAuthApp | undefined> {
    const { rows } = await this.pool.query<AppDbRow>('SELECT * FROM oauth_apps WHERE connector_type = $1', [connectorType]);
    return rows[0] && { ...rows[0], updated_at: rows[0].updated_at.toISOString() };
  }

  async listOAuthApps(): Promise<OAuthAppInfo[]> {
    const { rows } = await this.pool.query<AppDbRow>('SELECT connector_type, client_id, updated_at FROM oauth_apps ORDER BY connector_type');
    return rows.map((row) => ({ connector_type: row.connector_type, client_id: row.client_id, updated_at: row.updated_at.toISOString() }));
  }

  async removeOAuthApp(connectorType: string): Promise<boolean> {
    return (await this.pool.query('DELETE FROM oauth_apps WHERE connector_type = $1', [connectorType])).rowCount === 1;
  }

  async createSession(session: NewConnectSession): Promise<void> {
    await this.pool.query(
      'INSERT INTO connect_sessions (id, client_id, external_user_id, connector_types, return_url, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [
        session.id,
        session.client_id,
        session.external_user_id,
        session.connector_types ? JSON.stringify(session.connector_types) : null,
        session.return_url,
        session.expires_at,
      ],
    );
  }

  async findSession(id: string): Promise<ConnectSessionRow | undefined> {
    const { rows } = await this.pool.query<SessionDbRow>('SELECT * FROM connect_sessions WHERE id = $1', [id]);
    const row = rows[0];
    return (
      row && {
        ...row,
        expires_at: Number(row.expires_at),
        state_used_at: epochMs(row.state_used_at),
        completed_at: epochMs(row.completed_at),
      }
    );
  }

  async startAuthorization(id: string, authorization: ConnectAuthorization): Promise<boolean> {
    const sql = `UPDATE connect_sessions SET state_type = $1, state_nonce = $2, verifier_ciphertext = $3, state_config = $4::jsonb, state_used_at = NULL
                 WHERE id = $5 AND completed_at IS NULL`;
    const { state_type, state_nonce, verifier_ciphertext, state_config } = authorization;
    const result = await this.pool.query(sql, [state_type, state_nonce, verifier_ciphertext, JSON.stringify(state_config), id]);
    return result.rowCount === 1;
  }

  async useState(id: string, nonce: string, now: number): Promise<boolean> {
    const sql = 'UPDATE connect_sessions SET state_used_at = $1 WHERE id = $2 AND state_nonce = $3 AND state_used_at IS NULL';
    return (await this.pool.query(sql, [now, id, nonce])).rowCount === 1;
  }

  async claim(id: string, now: number): Promise<boolean> {
    return (await this.pool.query('UPDATE connect_sessions SET completed_at = $1 WHERE id = $2 AND completed_at IS NULL', [now, id])).rowCount === 1;
  }

  async release(id: string): Promise<void> {
    await this.pool.query('UPDATE connect_sessions SET completed_at = NULL WHERE id = $1 AND connector_id IS NULL', [id]);
  }

  async complete(id: string, connectorId: string): Promise<void> {
    await this.pool.query('UPDATE connect_sessions SET connector_id = $1 WHERE id = $2', [connectorId, id]);
  }
}
