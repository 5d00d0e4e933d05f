/**
 * One entry of `POST /v2/calls/extensive`'s `calls[]` (API-NOTES C.3, spec `CallData`):
 * `metaData` always, the other parts as the content selector asks.
 */
import { createHmac } from 'node:crypto';
import type { CallDetails } from './call-details.js';
import type { ContentSelection, ContextTiming } from './content-selector.js';
import type { CallRecord, GongDataset } from './dataset.js';
import type { CrmLink } from './records.js';

/** C.3: "Media URLs are valid 8 hours." */
export const MEDIA_URL_TTL_SECONDS = 8 * 3600;
/**
 * Host of the media URLs. The fake does not serve the recordings (no connector action downloads
 * them, SPEC "download" is task-management only); the URLs only carry a realistic expiry.
 */
const MEDIA_HOST = 'https://media.gong-cdn.example';
/** The CRM the seeded company links calls to (`CallContextDto.system`). */
const CRM_SYSTEM = 'Salesforce';

/**
 * Renders one call for the selector. Keys not asked for are absent; parts asked for but empty
 * are empty arrays. `nowMs` dates the media URLs' expiry.
 */
export function renderExtensiveCall(
  data: GongDataset,
  record: CallRecord,
  selection: ContentSelection,
  mediaKey: string,
  nowMs: number,
): Record<string, unknown> {
  const out: Record<string, unknown> = { metaData: record.metaData };
  if (selection.context !== 'None') {
    out['context'] = record.crm.length > 0 ? [{ system: CRM_SYSTEM, objects: record.crm.flatMap((link) => crmObjects(link, selection)) }] : [];
  }
  if (selection.parties) {
    out['parties'] = record.parties.map((party) => {
      if (selection.context === 'None') return party;
      const link = record.partyCrm.get(party.id);
      return { ...party, context: link ? [{ system: CRM_SYSTEM, objects: crmObjects(link, selection) }] : [] };
    });
  }
  const needsDetails = selection.content.size > 0 || selection.interaction.size > 0 || selection.publicComments;
  const details = needsDetails ? data.callDetails(record) : undefined;
  if (details && selection.content.size > 0) out['content'] = renderContent(details, selection);
  if (details && selection.interaction.size > 0) out['interaction'] = renderInteraction(details, selection);
  if (details && selection.publicComments) out['collaboration'] = { publicComments: details.publicComments };
  if (selection.media) {
    const expires = Math.floor(nowMs / 1000) + MEDIA_URL_TTL_SECONDS;
    const media: Record<string, string> = { audioUrl: mediaUrl(record.metaData.id, 'audio.mp3', expires, mediaKey) };
    if (record.metaData.media === 'Video') media['videoUrl'] = mediaUrl(record.metaData.id, 'video.mp4', expires, mediaKey);
    out['media'] = media;
  }
  return out;
}

/** Basic: `{objectType, objectId}`; Extended: one object per timing with `timing` and `fields`. */
function crmObjects(link: CrmLink, selection: ContentSelection): Array<Record<string, unknown>> {
  if (selection.context === 'Basic') return [{ objectType: link.objectType, objectId: link.objectId }];
  return selection.contextTiming.map((timing: ContextTiming) => ({
    objectType: link.objectType,
    objectId: link.objectId,
    timing,
    fields: Object.entries(timing === 'Now' ? link.now : link.atCall).map(([name, value]) => ({ name, value })),
  }));
}

function renderContent(details: CallDetails, selection: ContentSelection): Record<string, unknown> {
  const wants = selection.content;
  const content: Record<string, unknown> = {};
  if (wants.has('structure')) content['structure'] = details.structure;
  if (wants.has('topics')) content['topics'] = details.topics;
  if (wants.has('trackers')) {
    // Occurrence timing "must be used in combination with the trackers field" (spec).
    const occurrences = wants.has('trackerOccurrences');
    content['trackers'] = details.trackers.map((tracker) => {
      const out: Record<string, unknown> = { id: tracker.id, name: tracker.name, count: tracker.count, type: tracker.type };
      if (occurrences) out['occurrences'] = tracker.occurrences;
      if (tracker.phrases) {
        out['phrases'] = tracker.phrases.map((phrase) => (occurrences ? phrase : { count: phrase.count, phrase: phrase.phrase }));
      }
      return out;
    });
  }
  if (wants.has('pointsOfInterest')) content['pointsOfInterest'] = details.pointsOfInterest;
  // "Returned when it is available and contentSelector.exposedFields.content.<x> = true" (spec).
  if (wants.has('brief') && details.brief !== undefined) content['brief'] = details.brief;
  if (wants.has('outline') && details.outline) content['outline'] = details.outline;
  if (wants.has('highlights') && details.highlights) content['highlights'] = details.highlights;
  if (wants.has('callOutcome') && details.callOutcome) content['callOutcome'] = details.callOutcome;
  if (wants.has('keyPoints') && details.keyPoints) content['keyPoints'] = details.keyPoints;
  return content;
}

function renderInteraction(details: CallDetails, selection: ContentSelection): Record<string, unknown> {
  const wants = selection.interaction;
  const interaction: Record<string, unknown> = {};
  if (wants.has('speakers')) interaction['speakers'] = details.speakers;
  // ExposedFields.interaction.personInteractionStats is answered as `interactionStats` (spec).
  if (wants.has('personInteractionStats')) interaction['interactionStats'] = details.interactionStats;
  if (wants.has('video')) interaction['video'] = details.video ?? [];
  if (wants.has('questions')) interaction['questions'] = details.questions;
  return interaction;
}

function mediaUrl(callId: string, file: string, expires: number, key: string): string {
  const path = `/calls/${callId}/${file}`;
  const signature = createHmac('sha256', key).update(`${path}:${expires}`).digest('hex').slice(0, 40);
  return `${MEDIA_HOST}${path}?Expires=${expires}&Signature=${signature}`;
}
