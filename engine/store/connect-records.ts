/**
 * What the Connect page keeps (issue 16): the operator's OAuth apps, and connect sessions. One
 * interface over both backends; the statements live in sqlite-connect-records.ts and
 * postgres-connect-records.ts.
 */

/** An operator's OAuth app for one connector type, its secret encrypted with the store's cipher. */
export interface StoredOAuthApp {
  connector_type: string;
  client_id: string;
  secret_ciphertext: string;
  updated_at: string;
}

/** What `oauth-apps list` shows: never the secret. */
export type OAuthAppInfo = Omit<StoredOAuthApp, 'secret_ciphertext'>;

/** A connect session as created: `id` is the SHA-256 of the URL's token, never the token itself. */
export interface NewConnectSession {
  id: string;
  client_id: string;
  external_user_id: string;
  /** The types the end user may choose from; null for every type. */
  connector_types: string[] | null;
  return_url: string | null;
  /** Epoch ms. */
  expires_at: number;
}

/** A stored session with the authorization started last and how it ended. */
export interface ConnectSessionRow extends NewConnectSession {
  /** The type and nonce of the latest OAuth state handed out; only that state is accepted back. */
  state_type: string | null;
  state_nonce: string | null;
  /** The PKCE verifier of that authorization, encrypted. */
  verifier_ciphertext: string | null;
  /** The connector config the user chose for that authorization (a region): the connector is created with it. */
  state_config: Record<string, unknown> | null;
  /** Epoch ms when that state came back (a second callback with it is a replay). */
  state_used_at: number | null;
  /** Epoch ms when a connector creation took the session (single use). */
  completed_at: number | null;
  connector_id: string | null;
}

/** The authorization a session starts: its state's type and nonce, and the encrypted PKCE verifier. */
export interface ConnectAuthorization {
  state_type: string;
  state_nonce: string;
  verifier_ciphertext: string | null;
  /** The config the authorize URL was built with, kept for the connector the callback creates. */
  state_config: Record<string, unknown>;
}

/** The store's records of OAuth apps and connect sessions. Every change that must happen once is one conditional statement. */
export interface ConnectRecords {
  /** Inserts or replaces the app of a type. */
  setOAuthApp(app: Omit<StoredOAuthApp, 'updated_at'>): Promise<void>;
  findOAuthApp(connectorType: string): Promise<StoredOAuthApp | undefined>;
  /** Every app by type, without secrets. */
  listOAuthApps(): Promise<OAuthAppInfo[]>;
  /** False when the type had no app. */
  removeOAuthApp(connectorType: string): Promise<boolean>;

  createSession(session: NewConnectSession): Promise<void>;
  findSession(id: string): Promise<ConnectSessionRow | undefined>;
  /** Records a new authorization (replacing an unused one); false when the session is already completed. */
  startAuthorization(id: string, authorization: ConnectAuthorization): Promise<boolean>;
  /** Takes the state back once: false when it is not the latest one handed out, or was already used. */
  useState(id: string, nonce: string, now: number): Promise<boolean>;
  /** Takes the session for one connector creation; false when another creation took it first. */
  claim(id: string, now: number): Promise<boolean>;
  /** Gives a claim back after the creation failed, so the user can try again. */
  release(id: string): Promise<void>;
  /** Records the connector the claimed session created. */
  complete(id: string, connectorId: string): Promise<void>;
}
