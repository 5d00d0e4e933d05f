/** One record as an action returns it: a JSON object. */
export type RecordData = Record<string, unknown>;
