/**
 * The example of an entity on a reference page: the library call as a user writes it, and the
 * sandbox's real answer to it, abridged and marked so.
 */
import { abridgeAnswer, withoutPorts } from './abridge.js';
import { jsLiteral } from './js-literal.js';
import { code, fence } from './markdown.js';
import type { ExampleRun } from './run-examples.js';

/** The variable a page's examples call the connection by (`amazon-ads` -> `amazonAds`). */
export function connectionName(type: string): string {
  return type.replace(/[-_]+([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** The example part of an entity. */
export function exampleSection(type: string, run: ExampleRun, origins: string[]): string {
  const call = `const answer = await ${connectionName(type)}.execute(${jsLiteral(run.entity)}, ${jsLiteral(run.action)}, ${jsLiteral(run.params)});`;
  const abridged = abridgeAnswer(withoutPorts(run.answer, origins) as ExampleRun['answer']);
  const said = abridged.cuts.length > 0 ? `The sandbox's answer, abridged (${abridged.cuts.join('; ')}):` : "The sandbox's answer, in full:";
  return [
    `#### Example: ${code(`${run.entity} ${run.action}`)}`,
    '',
    fence('js', call),
    '',
    said,
    '',
    fence('json', JSON.stringify(abridged.value, null, 2)),
  ].join('\n');
}
