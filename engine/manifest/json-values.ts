/** A JSON Schema written by a manifest author (params, records, credentials, config): data to ajv. */
export type JsonSchema = Record<string, unknown>;

/** A request body: templates, nested in objects and arrays, with JSON literals between them. */
export type TemplateTree = string | number | boolean | null | TemplateTree[] | { [key: string]: TemplateTree };
