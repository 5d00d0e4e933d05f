import type { ConnectorPatch } from './types.js';

/** One column a connector patch sets, with the value as the database receives it. */
export interface PatchColumn {
  column: 'name' | 'config' | 'auth_scheme' | 'credentials_ciphertext';
  value: string | null;
}

/**
 * The columns a patch changes, from a fixed whitelist (so no caller-supplied key ever reaches the
 * SQL text), with `config` serialized to JSON. Both dialects build their UPDATE from this list.
 */
export function patchColumns(patch: ConnectorPatch): PatchColumn[] {
  const columns: PatchColumn[] = [];
  if (patch.name !== undefined) columns.push({ column: 'name', value: patch.name });
  if (patch.config !== undefined) columns.push({ column: 'config', value: JSON.stringify(patch.config) });
  if (patch.auth_scheme !== undefined) columns.push({ column: 'auth_scheme', value: patch.auth_scheme });
  if (patch.credentials_ciphertext !== undefined) {
    columns.push({ column: 'credentials_ciphertext', value: patch.credentials_ciphertext });
  }
  return columns;
}
