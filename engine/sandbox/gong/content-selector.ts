/**
 * `contentSelector` of `POST /v2/calls/extensive` (API-NOTES C.3, spec `ContentSelector`,
 * `ExposedFields`): which parts of each call the response carries.
 */
import type { FakeRequest } from '../fake-server.js';
import type { FakeResponse } from '../responses.js';
import { malformed } from './errors.js';

/** `ExposedFields.content` flags. */
export const CONTENT_FLAGS = [
  'structure',
  'topics',
  'trackers',
  'trackerOccurrences',
  'pointsOfInterest',
  'brief',
  'outline',
  'highlights',
  'callOutcome',
  'keyPoints',
] as const;
/** `ExposedFields.interaction` flags. */
export const INTERACTION_FLAGS = ['speakers', 'video', 'personInteractionStats', 'questions'] as const;

export type ContentFlag = (typeof CONTENT_FLAGS)[number];
export type InteractionFlag = (typeof INTERACTION_FLAGS)[number];
export type ContextLevel = 'None' | 'Basic' | 'Extended';
export type ContextTiming = 'Now' | 'TimeOfCall';

/** A validated selector; everything off by default (only `metaData` is returned). */
export interface ContentSelection {
  context: ContextLevel;
  /** Default `["Now"]`. */
  contextTiming: ContextTiming[];
  parties: boolean;
  media: boolean;
  content: ReadonlySet<ContentFlag>;
  interaction: ReadonlySet<InteractionFlag>;
  publicComments: boolean;
}

/** A selection, or the 400 to answer. */
export type SelectionOutcome = { ok: true; selection: ContentSelection } | { ok: false; response: FakeResponse };

/**
 * Validates a selector. `context` defaults to None; `contextTiming` "Can be provided only when the
 * context field is set to 'Extended'" (spec), so with another level it is a 400; unknown enum
 * values and non-boolean flags are 400 too. Unknown members are ignored.
 */
export function parseContentSelector(req: FakeRequest, raw: unknown): SelectionOutcome {
  const selection: ContentSelection = {
    context: 'None',
    contextTiming: ['Now'],
    parties: false,
    media: false,
    content: new Set(),
    interaction: new Set(),
    publicComments: false,
  };
  if (raw === undefined || raw === null) return { ok: true, selection };
  if (!isObject(raw)) return fail(req, 'contentSelector must be an object');
  const context = raw['context'];
  if (context !== undefined && context !== null) {
    if (context !== 'None' && context !== 'Basic' && context !== 'Extended')
      return fail(req, `contentSelector.context must be None, Basic or Extended, got ${JSON.stringify(context)}`);
    selection.context = context;
  }
  const timing = raw['contextTiming'];
  if (timing !== undefined && timing !== null) {
    if (selection.context !== 'Extended') return fail(req, "contentSelector.contextTiming can be provided only when contentSelector.context is 'Extended'");
    if (!Array.isArray(timing) || timing.length === 0 || !timing.every((item) => item === 'Now' || item === 'TimeOfCall')) {
      return fail(req, 'contentSelector.contextTiming must be a non-empty array of "Now" and "TimeOfCall"');
    }
    selection.contextTiming = [...new Set(timing as ContextTiming[])];
  }
  const exposed = raw['exposedFields'];
  if (exposed === undefined || exposed === null) return { ok: true, selection };
  if (!isObject(exposed)) return fail(req, 'contentSelector.exposedFields must be an object');
  const parties = flag(exposed['parties'], 'exposedFields.parties');
  if (typeof parties === 'string') return fail(req, parties);
  const media = flag(exposed['media'], 'exposedFields.media');
  if (typeof media === 'string') return fail(req, media);
  selection.parties = parties;
  selection.media = media;
  const groups: Array<[string, readonly string[], Set<string>]> = [
    ['content', CONTENT_FLAGS, selection.content as Set<string>],
    ['interaction', INTERACTION_FLAGS, selection.interaction as Set<string>],
    ['collaboration', ['publicComments'], new Set<string>()],
  ];
  for (const [group, names, into] of groups) {
    const value = exposed[group];
    if (value === undefined || value === null) continue;
    if (!isObject(value)) return fail(req, `exposedFields.${group} must be an object`);
    for (const name of names) {
      const on = flag(value[name], `exposedFields.${group}.${name}`);
      if (typeof on === 'string') return fail(req, on);
      if (on) into.add(name);
    }
    if (group === 'collaboration') selection.publicComments = into.has('publicComments');
  }
  return { ok: true, selection };
}

/** A flag's value: absent or null is false; anything but a boolean is the 400 reason. */
function flag(value: unknown, path: string): boolean | string {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') return `${path} must be a boolean`;
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function fail(req: FakeRequest, reason: string): SelectionOutcome {
  return { ok: false, response: malformed(req, reason) };
}
