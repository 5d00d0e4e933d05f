/**
 * A call's analysis as `POST /v2/calls/extensive` and `POST /v2/calls/transcript` serve it
 * (API-NOTES C.3; spec `ContentDto`, `InteractionMeasuresDto`, `CollaborationDto`, `Monologue`),
 * built from the seed and the call's list position on first use.
 */
import { createPrng, type Prng } from '../prng.js';
import type { CallRecord } from './records.js';
import type { GongMonologue, GongParty, GongUser } from './records.js';
import { CALL_OUTCOMES, COMMENTS, SENTENCES, TOPICS, TRACKERS, VIDEO_SEGMENTS } from './seed-values.js';
import { renderTime } from './time.js';

/** A tracker occurrence: seconds from the start of the call and who said it. */
export interface TrackerOccurrence {
  startTime: number;
  speakerId: string;
}

/** `TrackerDto`; `phrases` only for keyword trackers. */
export interface TrackerHit {
  id: string;
  name: string;
  count: number;
  type: 'KEYWORD' | 'SMART';
  occurrences: TrackerOccurrence[];
  phrases?: Array<{ count: number; occurrences: TrackerOccurrence[]; phrase: string }>;
}

/** Everything the content selector can expose for one call, all parts built. */
export interface CallDetails {
  transcript: GongMonologue[];
  structure: Array<{ name: string; duration: number }>;
  topics: Array<{ name: string; duration: number }>;
  trackers: TrackerHit[];
  pointsOfInterest: { actionItems: Array<{ snippetStartTime: number; snippetEndTime: number; speakerID: string; snippet: string }> };
  /** The AI summaries exist only for calls with speech. */
  brief?: string;
  outline?: Array<{ section: string; startTime: number; duration: number; items: Array<{ text: string; startTime: number }> }>;
  highlights?: Array<{ title: string; items: Array<{ text: string; startTimes: number[] }> }>;
  callOutcome?: { id: string; category: string; name: string };
  keyPoints?: Array<{ text: string }>;
  speakers: Array<{ id: string; userId?: string; talkTime: number }>;
  interactionStats: Array<{ name: string; value: number }>;
  /** Only for video calls. */
  video?: Array<{ name: string; duration: number }>;
  questions: { companyCount: number; nonCompanyCount: number };
  publicComments: Array<{
    id: string;
    audioStartTime: number;
    audioEndTime: number;
    commenterUserId: string;
    comment: string;
    posted: string;
    inReplyTo?: string;
    duringCall: boolean;
  }>;
}

/** The company's tracker ids, fixed so that tests can name them. */
export const TRACKER_IDS = TRACKERS.map((_, index) => String(6_843_152_929_075_440_000n + BigInt(index * 7 + 37)));

/** A party with a speaker id: someone who can appear in the transcript. */
type Speaker = GongParty & { speakerId: string };

/** Talk seconds per speaker and per topic, and the longest monologues, read off the transcript. */
interface TalkStats {
  talk: Map<string, number>;
  topicTime: Map<string, number>;
  longestHost: number;
  longestCustomer: number;
  totalTalk: number;
  internalTalk: number;
}

/**
 * Builds the details of one call. The transcript comes first and the rest is derived from it
 * (talk times, topics, tracker speakers), so the parts agree with each other.
 * Why: the extensive and transcript routes must describe the same conversation.
 */
export function buildCallDetails(seed: number, record: CallRecord, users: readonly GongUser[]): CallDetails {
  const rng = createPrng((seed ^ Math.imul(record.index + 1, 0x9e3779b1)) | 0);
  const call = record.metaData;
  const speaking = record.parties.filter((party): party is Speaker => party.speakerId !== undefined);
  const transcript = call.language === 'zxx' || speaking.length === 0 ? [] : buildTranscript(rng, call.duration, speaking);
  const speech = transcript.length > 0;
  const host = speaking.find((party) => party.userId === call.primaryUserId) ?? speaking[0];
  const stats = talkStats(transcript, speaking);
  const trackers = speech ? trackerHits(rng, call.duration, speaking) : [];
  // The parts draw in this order (structure, action items, stats, questions, comments, video, summaries).
  const details: CallDetails = {
    transcript,
    structure: speech ? splitDuration(rng, call.duration, ['Introduction', 'Discovery', 'Demo', 'Next steps']) : [],
    topics: [...stats.topicTime].map(([name, seconds]) => ({ name, duration: Math.round(seconds) })),
    trackers,
    pointsOfInterest: { actionItems: speech && host ? actionItems(rng, call.duration, host) : [] },
    speakers: speaking.map((party) => speakerTime(party, stats.talk)),
    interactionStats: speech ? interactionStats(rng, stats) : [],
    questions: { companyCount: speech ? rng.int(0, 15) : 0, nonCompanyCount: speech ? rng.int(0, 10) : 0 },
    publicComments: buildComments(rng, record, users),
  };
  if (call.media === 'Video') {
    details.video = splitDuration(rng, Math.round(call.duration * 0.9), [...VIDEO_SEGMENTS].slice(0, rng.int(2, VIDEO_SEGMENTS.length)));
  }
  if (speech) addSummaries(rng, details, call);
  return details;
}

/** Sums each monologue (first sentence start to last sentence end) per speaker and topic. */
function talkStats(transcript: readonly GongMonologue[], speaking: readonly Speaker[]): TalkStats {
  const talk = new Map<string, number>();
  let longestHost = 0;
  let longestCustomer = 0;
  const topicTime = new Map<string, number>();
  for (const monologue of transcript) {
    const first = monologue.sentences[0]!;
    const last = monologue.sentences[monologue.sentences.length - 1]!;
    const seconds = (last.end - first.start) / 1000;
    talk.set(monologue.speakerId, (talk.get(monologue.speakerId) ?? 0) + seconds);
    topicTime.set(monologue.topic, (topicTime.get(monologue.topic) ?? 0) + seconds);
    const party = speaking.find((candidate) => candidate.speakerId === monologue.speakerId);
    if (party?.affiliation === 'Internal') longestHost = Math.max(longestHost, seconds);
    else longestCustomer = Math.max(longestCustomer, seconds);
  }
  const totalTalk = [...talk.values()].reduce((sum, value) => sum + value, 0);
  const internalTalk = speaking.filter((party) => party.affiliation === 'Internal').reduce((sum, party) => sum + (talk.get(party.speakerId) ?? 0), 0);
  return { talk, topicTime, longestHost, longestCustomer, totalTalk, internalTalk };
}

/** Every tracker: keyword trackers 0-2 hits per phrase, smart trackers 0-3 hits. */
function trackerHits(rng: Prng, duration: number, speaking: readonly Speaker[]): TrackerHit[] {
  const occurrence = (): TrackerOccurrence => ({
    startTime: round(rng.next() * duration, 2),
    speakerId: speaking.length > 0 ? rng.pick(speaking).speakerId : '',
  });
  return TRACKERS.map(([name, type, phrases], index) => {
    const hit: TrackerHit = { id: TRACKER_IDS[index]!, name, count: 0, type, occurrences: [] };
    if (type === 'KEYWORD') {
      hit.phrases = phrases.map((phrase) => {
        const occurrences = Array.from({ length: rng.int(0, 2) }, occurrence).sort((a, b) => a.startTime - b.startTime);
        return { count: occurrences.length, occurrences, phrase };
      });
      hit.occurrences = hit.phrases.flatMap((phrase) => phrase.occurrences).sort((a, b) => a.startTime - b.startTime);
    } else {
      hit.occurrences = Array.from({ length: rng.int(0, 3) }, occurrence).sort((a, b) => a.startTime - b.startTime);
    }
    hit.count = hit.occurrences.length;
    return hit;
  });
}

/** 0-2 action items said by the host. */
function actionItems(rng: Prng, duration: number, host: Speaker): CallDetails['pointsOfInterest']['actionItems'] {
  return Array.from({ length: rng.int(0, 2) }, () => {
    const start = round(rng.next() * Math.max(1, duration - 20), 2);
    return { snippetStartTime: start, snippetEndTime: round(start + rng.int(5, 20), 2), speakerID: host.speakerId, snippet: rng.pick(SENTENCES) };
  });
}

/** A party's talk time; `userId` only for company users. */
function speakerTime(party: Speaker, talk: ReadonlyMap<string, number>): CallDetails['speakers'][number] {
  const speaker: { id: string; userId?: string; talkTime: number } = { id: party.id, talkTime: round(talk.get(party.speakerId) ?? 0, 2) };
  if (party.userId) speaker.userId = party.userId;
  return speaker;
}

/** The five interaction measures; the first three follow from the transcript, the last two are drawn. */
function interactionStats(rng: Prng, stats: TalkStats): CallDetails['interactionStats'] {
  return [
    { name: 'Talk Ratio', value: stats.totalTalk > 0 ? round(stats.internalTalk / stats.totalTalk, 2) : 0 },
    { name: 'Longest Monologue', value: Math.round(stats.longestHost) },
    { name: 'Longest Customer Story', value: Math.round(stats.longestCustomer) },
    { name: 'Interactivity', value: round(rng.next() * 10, 1) },
    { name: 'Patience', value: round(0.4 + rng.next() * 2, 2) },
  ];
}

/** The AI summaries of a call with speech: brief, outline per structure part, highlights, outcome, key points. */
function addSummaries(rng: Prng, details: CallDetails, call: CallRecord['metaData']): void {
  details.brief = `${call.title}: ${rng.pick(SENTENCES)} ${rng.pick(SENTENCES)}`;
  details.outline = details.structure.reduce<NonNullable<CallDetails['outline']>>((sections, part) => {
    const startTime = sections.reduce((sum, section) => sum + section.duration, 0);
    sections.push({
      section: part.name,
      startTime,
      duration: part.duration,
      items: [{ text: rng.pick(SENTENCES), startTime: startTime + rng.int(0, Math.max(0, part.duration - 1)) }],
    });
    return sections;
  }, []);
  details.highlights = [
    { title: 'Next steps', items: [{ text: rng.pick(SENTENCES), startTimes: [round(rng.next() * call.duration, 2)] }] },
    { title: 'Pain points', items: [{ text: rng.pick(SENTENCES), startTimes: [round(rng.next() * call.duration, 2)] }] },
  ];
  const [id, category, name] = rng.pick(CALL_OUTCOMES);
  details.callOutcome = { id, category, name };
  details.keyPoints = Array.from({ length: rng.int(1, 3) }, () => ({ text: rng.pick(SENTENCES) }));
}

function buildTranscript(rng: Prng, durationSeconds: number, speaking: readonly Speaker[]): GongMonologue[] {
  const count = Math.min(40, Math.max(2, Math.round(durationSeconds / 45)));
  const budget = Math.floor((durationSeconds * 1000) / count);
  const out: GongMonologue[] = [];
  let previous = '';
  for (let k = 0; k < count; k += 1) {
    const others = speaking.filter((party) => party.speakerId !== previous);
    const speaker = (others.length > 0 ? rng.pick(others) : speaking[0]!).speakerId;
    previous = speaker;
    const topic = TOPICS[Math.min(TOPICS.length - 1, Math.floor((k * TOPICS.length) / count))]!;
    const sentenceCount = rng.int(1, 4);
    const slice = Math.floor(budget / sentenceCount);
    const sentences: GongMonologue['sentences'] = [];
    for (let s = 0; s < sentenceCount; s += 1) {
      const start = k * budget + s * slice + rng.int(0, Math.max(0, Math.floor(slice / 10)));
      const end = Math.max(start + 1, k * budget + (s + 1) * slice - rng.int(0, Math.max(0, Math.floor(slice / 10))));
      sentences.push({ start, end, text: rng.pick(SENTENCES) });
    }
    out.push({ speakerId: speaker, topic, sentences });
  }
  return out;
}

function buildComments(rng: Prng, record: CallRecord, users: readonly GongUser[]): CallDetails['publicComments'] {
  const internal = record.parties.filter((party) => party.userId !== undefined);
  const commenters = internal.length > 0 ? internal.map((party) => party.userId!) : users.slice(0, 1).map((user) => user.id);
  const comments: CallDetails['publicComments'] = [];
  const duration = record.metaData.duration;
  const endMs = Date.parse(record.metaData.started) + duration * 1000;
  for (let k = rng.chance(0.6) ? rng.int(1, 3) : 0; k > 0; k -= 1) {
    const start = round(rng.next() * Math.max(1, duration - 10), 1);
    const duringCall = rng.chance(0.3);
    const comment: CallDetails['publicComments'][number] = {
      id: String(5_100_000_000_000_000_000n + BigInt(record.index * 10 + comments.length)),
      audioStartTime: start,
      audioEndTime: round(start + rng.int(3, 30), 1),
      commenterUserId: rng.pick(commenters),
      comment: rng.pick(COMMENTS),
      posted: renderTime(duringCall ? endMs - rng.int(1, Math.max(1, duration)) * 1000 : endMs + rng.int(1, 72) * 3_600_000),
      duringCall,
    };
    if (comments.length > 0 && rng.chance(0.5)) comment.inReplyTo = comments[0]!.id;
    comments.push(comment);
  }
  return comments;
}

/** Splits `total` seconds over `names` in random shares that add up to `total`. */
function splitDuration(rng: Prng, total: number, names: readonly string[]): Array<{ name: string; duration: number }> {
  const weights = names.map(() => 1 + rng.next() * 3);
  const sum = weights.reduce((acc, weight) => acc + weight, 0);
  let left = total;
  return names.map((name, index) => {
    const duration = index === names.length - 1 ? left : Math.floor((total * weights[index]!) / sum);
    left -= duration;
    return { name, duration };
  });
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
