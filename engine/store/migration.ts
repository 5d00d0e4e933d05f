/**
 * One step of a store's schema. Steps are numbered from 1 without gaps and never edited once
 * released: a change is a new step, so every database can be brought forward from any version.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The latest version a list of migrations reaches (0 for none). */
export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.reduce((max, migration) => Math.max(max, migration.version), 0);
}
