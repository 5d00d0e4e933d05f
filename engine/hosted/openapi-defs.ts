/**
 * Moves a schema's `$defs` into an OpenAPI document's components. Why: a `$ref` such as
 * `#/$defs/Filter` (the search grammar refers back to itself) resolves against the document's
 * root once the schema sits inside a document, and generators only follow component refs.
 */

type Schema = Record<string, unknown>;

const LOCAL = '#/$defs/';

function rewrite(value: unknown, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, prefix));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string' && item.startsWith(LOCAL)
        ? `#/components/schemas/${prefix}.${item.slice(LOCAL.length)}`
        : rewrite(item, prefix),
    ]),
  );
}

/**
 * The schema without `$defs`, its refs pointing at `<prefix>.<name>` components, and those
 * components (named `<prefix>.<name>`), ready to be added to `components.schemas`.
 */
export function hoistDefs(schema: Schema, prefix: string): { schema: Schema; components: Record<string, Schema> } {
  const { $defs, ...rest } = schema;
  const defs = ($defs ?? {}) as Record<string, Schema>;
  const components = Object.fromEntries(Object.entries(defs).map(([name, def]) => [`${prefix}.${name}`, rewrite(def, prefix) as Schema]));
  return { schema: rewrite(rest, prefix) as Schema, components };
}
