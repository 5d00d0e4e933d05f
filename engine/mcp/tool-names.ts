import { TOOL_ID_CHARS } from '../manifest/index.js';

/**
 * The name of an entity's action tool. `-` parts it: connector types may hold `-` but entity and
 * action names never do (the manifest schema), so no two tools of one server share a name.
 */
export function actionToolName(prefix: string, entity: string, action: string): string {
  return `${prefix}-${entity}-${action}`;
}

/** The tool that lists a connector's entities. */
export function entitiesToolName(prefix: string): string {
  return `${prefix}-entities`;
}

/** The tool that describes one entity of a connector. */
export function describeToolName(prefix: string): string {
  return `${prefix}-describe`;
}

/** The tool that runs a sync pass of a connector's local copy. */
export function syncToolName(prefix: string): string {
  return `${prefix}-sync`;
}

/** The random part of a connector id (`conn_<24 base32 characters>`). */
function idBody(id: string): string {
  return id.slice(id.indexOf('_') + 1).toLowerCase();
}

/**
 * The tool prefix of one of a user's stored connectors: its type and the first TOOL_ID_CHARS
 * characters of its id (`crm-k3x9ab`), so several connectors of one type stay apart and a
 * connector keeps its names while others come and go. Ids of `all` (the user's connectors) that
 * share those characters (about one user in 200,000 with a hundred connectors) get as many more as
 * tell them apart.
 */
export function hostedToolPrefix(connector: { id: string; type: string }, all: ReadonlyArray<{ id: string }>): string {
  const body = idBody(connector.id);
  let length = TOOL_ID_CHARS;
  while (length < body.length && all.some((other) => other.id !== connector.id && idBody(other.id).startsWith(body.slice(0, length)))) length++;
  return `${connector.type}-${body.slice(0, length)}`;
}
