/**
 * Deterministic seed of the Gong fake: two workspaces, a sales team (some inactive, a manager
 * hierarchy), three avatars, and calls spread over one year with parties and CRM links
 * (API-NOTES C.3). Per-call content and transcripts are built lazily (call-details.ts).
 */
import { createPrng, type Prng } from '../prng.js';
import { GongDataset, type CallRecord } from './dataset.js';
import type { CrmLink, GongCall, GongParty, GongUser, GongWorkspace } from './records.js';
import {
  CALL_KINDS,
  CALL_LANGUAGES,
  CONFERENCE_SYSTEMS,
  FIRST_NAMES,
  INTERNAL_TITLES,
  LAST_NAMES,
  LEADER_TITLES,
  PROSPECT_COMPANIES,
  PROSPECT_TITLES,
  SDR_DISPOSITIONS,
  SPOKEN_LANGUAGES,
  TELEPHONY_SYSTEMS,
  USER_TITLES,
} from './seed-values.js';
import { renderTime } from './time.js';

const DAY = 86_400_000;
const MINUTE = 60_000;

/** Every seeded call started on or after this instant (UTC)... */
export const CALLS_FROM = '2024-07-01T00:00:00Z';
/** ...and before this one: one year of calls. */
export const CALLS_TO = '2025-07-01T00:00:00Z';
const CALLS_FROM_MS = Date.parse(CALLS_FROM);
const CALLS_TO_MS = Date.parse(CALLS_TO);
const USERS_CREATED_FROM_MS = Date.UTC(2019, 0, 1);
const USERS_CREATED_TO_MS = Date.UTC(2024, 5, 1);

/** The seeded company (the Gong tenant) and its e-mail domain. */
export const COMPANY_NAME = 'Quillstone';
const COMPANY_DOMAIN = 'quillstone.example';
const COMPANY_SLUG = 'quillstone';
/** Avatars: synthetic users for Gong employees working in the instance (C.3 `includeAvatars`). */
const AVATARS: ReadonlyArray<readonly [string, string, string]> = [
  ['Gong', 'Support', 'Gong Support'],
  ['Casey', 'Morgan', 'Customer Success Manager (Gong)'],
  ['Riley', 'Chen', 'Technical Account Manager (Gong)'],
];

/** Volumes for a given `records` (the size of the largest collection, calls). */
export interface GongSeedPlan {
  calls: number;
  users: number;
  avatars: number;
}

/**
 * `records` calls and one user per ten calls (at least 5): ~120 users for the default 1,200.
 * Why: `--records N` sets the largest collection (DESIGN.md §8); users keep a team-like ratio.
 */
export function gongSeedPlan(records: number): GongSeedPlan {
  if (!Number.isInteger(records) || records < 1) throw new RangeError(`records must be a positive integer, got ${records}`);
  return { calls: records, users: Math.max(5, Math.round(records / 10)), avatars: AVATARS.length };
}

/**
 * Builds the dataset for `records` and `seed`.
 * Why: every fake request reads this one deterministic store.
 */
export function seedGongData(records: number, seed: number): GongDataset {
  const plan = gongSeedPlan(records);
  const rng = createPrng(seed ^ 0x60e6);
  const ids = new UniqueIds(rng);
  const workspaces = seedWorkspaces(ids);
  const { users, avatarIds } = seedUsers(rng, plan);
  const team = users.filter((user) => !avatarIds.has(user.id));
  const calls = seedCalls(rng, ids, plan.calls, workspaces, team);
  return new GongDataset(seed, workspaces, users, avatarIds, calls);
}

/** Numeric-string ids that never repeat within one seed. */
class UniqueIds {
  private readonly used = new Set<string>();
  constructor(private readonly rng: Prng) {}

  /**
   * A numeric id of `digits` digits (19-digit ones stay below 2^63, as Gong's longs do).
   * Why: C.3: ids are numeric strings of up to 20 digits.
   */
  next(digits: number): string {
    for (;;) {
      let id = String(this.rng.int(1, digits >= 19 ? 8 : 9));
      while (id.length < digits) id += String(this.rng.int(0, 9));
      if (!this.used.has(id)) {
        this.used.add(id);
        return id;
      }
    }
  }
}

function seedWorkspaces(ids: UniqueIds): GongWorkspace[] {
  return [
    { id: ids.next(15), name: 'Sales', description: 'New business: SDRs and account executives' },
    { id: ids.next(15), name: 'Customer Success', description: 'Onboarding, renewals and expansion' },
  ];
}

function seedUsers(rng: Prng, plan: GongSeedPlan): { users: GongUser[]; avatarIds: Set<string> } {
  const users: GongUser[] = [];
  const emails = new Set<string>();
  const managers = Math.max(1, Math.round(plan.users / 12));
  // Ids ascend in creation order of the records, so the users list has a stable id order.
  let nextId = 2_345_994_848_484_230 + rng.int(0, 9_999);
  for (let index = 0; index < plan.users; index += 1) {
    nextId += rng.int(1_000, 9_999_999);
    const firstName = rng.pick(FIRST_NAMES);
    const lastName = rng.pick(LAST_NAMES);
    const local = uniqueLocalPart(emails, `${fold(firstName)}.${fold(lastName)}`);
    const title = index === 0 ? LEADER_TITLES[0] : index <= managers ? LEADER_TITLES[1] : rng.pick(USER_TITLES);
    const managerId = index === 0 ? undefined : index <= managers ? users[0]!.id : users[rng.int(1, managers)]!.id;
    users.push(
      makeUser(rng, {
        id: String(nextId),
        firstName,
        lastName,
        local,
        title,
        managerId,
        // C.3 `active`: about one user in ten has left; the head of sales never has.
        active: index === 0 || index <= managers ? true : !rng.chance(0.1),
        domain: COMPANY_DOMAIN,
      }),
    );
  }
  const avatarIds = new Set<string>();
  for (const [firstName, lastName, title] of AVATARS) {
    nextId += rng.int(1_000, 9_999_999);
    const local = uniqueLocalPart(emails, `${fold(firstName)}.${fold(lastName)}`);
    const avatar = makeUser(rng, { id: String(nextId), firstName, lastName, local, title, managerId: undefined, active: true, domain: 'gong.io' });
    avatarIds.add(avatar.id);
    users.push(avatar);
  }
  return { users, avatarIds };
}

interface UserPlan {
  id: string;
  firstName: string;
  lastName: string;
  local: string;
  title: string;
  managerId: string | undefined;
  active: boolean;
  domain: string;
}

function makeUser(rng: Prng, plan: UserPlan): GongUser {
  const email = `${plan.local}@${plan.domain}`;
  const primary = rng.chance(0.7) ? 'en-US' : rng.pick(SPOKEN_LANGUAGES);
  const spokenLanguages = [{ language: primary, primary: true }];
  if (rng.chance(0.25)) {
    const other = rng.pick(SPOKEN_LANGUAGES);
    if (other !== primary) spokenLanguages.push({ language: other, primary: false });
  }
  const user: GongUser = {
    id: plan.id,
    emailAddress: email,
    created: renderTime(USERS_CREATED_FROM_MS + Math.floor(rng.next() * (USERS_CREATED_TO_MS - USERS_CREATED_FROM_MS))),
    active: plan.active,
    emailAliases: rng.chance(0.2) ? [`${plan.local.split('.')[0]}@${plan.domain}`] : [],
    trustedEmailAddress: email,
    firstName: plan.firstName,
    lastName: plan.lastName,
    title: plan.title,
    personalMeetingUrls: rng.chance(0.7) ? [`https://zoom.us/j/${rng.int(1_000_000_000, 9_999_999_999)}`] : [],
    settings: {
      webConferencesRecorded: plan.active && !rng.chance(0.1),
      preventWebConferenceRecording: false,
      telephonyCallsImported: rng.chance(0.6),
      emailsImported: rng.chance(0.5),
      preventEmailImport: rng.chance(0.05),
      nonRecordedMeetingsImported: rng.chance(0.3),
      gongConnectEnabled: rng.chance(0.4),
    },
    meetingConsentPageUrl: `https://join.gong.io/${COMPANY_SLUG}/${plan.local}?tkn=${token(rng, 22)}`,
    spokenLanguages,
  };
  if (rng.chance(0.8)) user.phoneNumber = `+1 555-${rng.int(100, 999)}-${rng.int(1000, 9999)}`;
  if (rng.chance(0.2)) user.extension = String(rng.int(100, 999));
  if (plan.managerId !== undefined) user.managerId = plan.managerId;
  return user;
}

function seedCalls(rng: Prng, ids: UniqueIds, count: number, workspaces: GongWorkspace[], team: GongUser[]): CallRecord[] {
  const span = (CALLS_TO_MS - CALLS_FROM_MS) / count;
  const records: CallRecord[] = [];
  for (let index = 0; index < count; index += 1) {
    const slotMs = CALLS_FROM_MS + Math.floor((index + rng.next() * 0.9) * span);
    records.push(seedCall(rng, ids, slotMs, workspaces, team));
  }
  // C.3: a few calls are private; make sure there is at least one whatever the seed.
  if (count >= 2 && !records.some((record) => record.metaData.isPrivate)) records[1]!.metaData.isPrivate = true;
  records.sort((a, b) => a.timeMs - b.timeMs || compareIds(a.metaData.id, b.metaData.id));
  records.forEach((record, index) => (record.index = index));
  return records;
}

type CallKind = 'external-conference' | 'internal-conference' | 'telephony';

function seedCall(rng: Prng, ids: UniqueIds, slotMs: number, workspaces: GongWorkspace[], team: GongUser[]): CallRecord {
  const roll = rng.next();
  const kind: CallKind = roll < 0.62 ? 'external-conference' : roll < 0.7 ? 'internal-conference' : 'telephony';
  const host = rng.pick(team);
  const id = ids.next(19);
  const workspace = rng.chance(0.7) ? workspaces[0]! : workspaces[1]!;
  const language = rng.pick(CALL_LANGUAGES);
  const company = rng.pick(PROSPECT_COMPANIES);
  const conference = kind !== 'telephony';
  // Web conferences start on the quarter hour (scheduled) and are recorded a little later.
  const scheduledMs = conference ? Math.floor(slotMs / (15 * MINUTE)) * 15 * MINUTE : Math.floor(slotMs / 1000) * 1000;
  const startedMs = conference ? scheduledMs + rng.int(0, 240) * 1000 : scheduledMs;
  const duration = language === 'zxx' ? rng.int(15, 60) : conference ? rng.int(900, 3600) : rng.int(30, 900);
  const call: GongCall = {
    id,
    url: `https://app.gong.io/call?id=${id}`,
    title: '',
    scheduled: renderTime(scheduledMs),
    started: renderTime(startedMs),
    duration,
    primaryUserId: host.id,
    direction: conference ? 'Conference' : rng.chance(0.7) ? 'Outbound' : 'Inbound',
    system: '',
    scope: kind === 'internal-conference' ? 'Internal' : rng.chance(0.03) ? 'Unknown' : 'External',
    media: conference && !rng.chance(0.1) ? 'Video' : 'Audio',
    language,
    workspaceId: workspace.id,
    isPrivate: rng.chance(0.05),
  };
  const parties: GongParty[] = [hostParty(ids, host, conference)];
  const crm: CrmLink[] = [];
  const partyCrm = new Map<string, CrmLink>();
  if (conference) {
    const system = rng.pick(CONFERENCE_SYSTEMS);
    call.system = system.system;
    call.meetingUrl = system.meetingUrl(String(rng.int(1_000_000_000, 9_999_999_999)));
    call.calendarEventId = `${rng.hex(26)}@google.com`;
    for (let k = rng.int(kind === 'internal-conference' ? 1 : 0, kind === 'internal-conference' ? 4 : 2); k > 0; k -= 1) {
      const colleague = rng.pick(team);
      if (parties.some((party) => party.userId === colleague.id)) continue;
      parties.push(colleagueParty(rng, ids, colleague));
    }
  } else {
    call.system = rng.pick(TELEPHONY_SYSTEMS);
    call.sdrDisposition = rng.pick(SDR_DISPOSITIONS);
    call.clientUniqueId = token(rng, 19).toUpperCase();
  }
  if (kind === 'internal-conference') {
    call.title = rng.pick(INTERNAL_TITLES);
  } else {
    const callKind = rng.pick(CALL_KINDS);
    call.title = conference ? `${company} <> ${COMPANY_NAME} | ${callKind}` : `${call.direction} call with ${company}`;
    if (rng.chance(0.4)) call.purpose = `${callKind} Call`;
    const account = accountLink(rng, company);
    crm.push(account);
    if (rng.chance(0.8)) crm.unshift(opportunityLink(rng, company, callKind, scheduledMs));
    const prospects = conference ? rng.int(1, 3) : 1;
    for (let k = 0; k < prospects; k += 1) {
      const party = prospectParty(rng, ids, company, conference);
      parties.push(party);
      partyCrm.set(party.id, contactLink(rng, party));
    }
    if (conference && rng.chance(0.1)) {
      parties.push({
        id: ids.next(14),
        name: 'Dial-in user',
        affiliation: 'Unknown',
        phoneNumber: `+1 555-${rng.int(100, 999)}-${rng.int(1000, 9999)}`,
        methods: ['Attendee'],
      });
    }
  }
  if (rng.chance(0.1)) call.customData = rng.pick(['Conference Call', 'Imported from dialer', '{"campaign":"Q3 outbound"}']);
  return { metaData: call, timeMs: conference ? scheduledMs : startedMs, index: 0, parties, crm, partyCrm };
}

function hostParty(ids: UniqueIds, host: GongUser, conference: boolean): GongParty {
  const party: GongParty = {
    id: ids.next(14),
    emailAddress: host.emailAddress,
    name: `${host.firstName} ${host.lastName}`,
    title: host.title,
    userId: host.id,
    speakerId: ids.next(19),
    affiliation: 'Internal',
  };
  if (conference) party.methods = ['Invitee', 'Attendee'];
  else if (host.phoneNumber) party.phoneNumber = host.phoneNumber;
  return party;
}

function colleagueParty(rng: Prng, ids: UniqueIds, colleague: GongUser): GongParty {
  const attended = rng.chance(0.75);
  const party: GongParty = {
    id: ids.next(14),
    emailAddress: colleague.emailAddress,
    name: `${colleague.firstName} ${colleague.lastName}`,
    title: colleague.title,
    userId: colleague.id,
    affiliation: 'Internal',
    methods: attended ? ['Invitee', 'Attendee'] : ['Invitee'],
  };
  if (attended && rng.chance(0.8)) party.speakerId = ids.next(19);
  return party;
}

function prospectParty(rng: Prng, ids: UniqueIds, company: string, conference: boolean): GongParty {
  const firstName = rng.pick(FIRST_NAMES);
  const lastName = rng.pick(LAST_NAMES);
  const party: GongParty = {
    id: ids.next(14),
    emailAddress: `${fold(firstName)}.${fold(lastName)}@${domainOf(company)}`,
    name: `${firstName} ${lastName}`,
    title: rng.pick(PROSPECT_TITLES),
    affiliation: 'External',
  };
  if (!conference || rng.chance(0.9)) party.speakerId = ids.next(19);
  if (conference) party.methods = rng.chance(0.9) ? ['Invitee', 'Attendee'] : ['Attendee'];
  else party.phoneNumber = `+1 555-${rng.int(100, 999)}-${rng.int(1000, 9999)}`;
  return party;
}

const INDUSTRIES = ['Software', 'Retail', 'Financial Services', 'Logistics', 'Manufacturing', 'Energy'] as const;
const STAGES = ['Qualification', 'Discovery', 'Proposal', 'Negotiation', 'Closed Won', 'Closed Lost'] as const;

function accountLink(rng: Prng, company: string): CrmLink {
  const fields = { Name: company, Website: `https://www.${domainOf(company)}`, Industry: rng.pick(INDUSTRIES) };
  return { objectType: 'Account', objectId: `001${token(rng, 15)}`, now: fields, atCall: { ...fields } };
}

function opportunityLink(rng: Prng, company: string, callKind: string, callMs: number): CrmLink {
  const stageAtCall = rng.int(0, 3);
  const stageNow = Math.min(STAGES.length - 1, stageAtCall + rng.int(0, 2));
  const amount = rng.int(5, 250) * 1000;
  const closeDate = new Date(callMs + rng.int(20, 120) * DAY).toISOString().slice(0, 10);
  const name = `${company} - ${callKind}`;
  return {
    objectType: 'Opportunity',
    objectId: `006${token(rng, 15)}`,
    now: {
      Name: name,
      StageName: STAGES[stageNow]!,
      Amount: amount,
      CloseDate: closeDate,
      Probability: stageNow >= 4 ? (stageNow === 4 ? 100 : 0) : 20 + stageNow * 20,
    },
    atCall: { Name: name, StageName: STAGES[stageAtCall]!, Amount: amount, CloseDate: closeDate, Probability: 20 + stageAtCall * 20 },
  };
}

function contactLink(rng: Prng, party: GongParty): CrmLink {
  const fields = { Email: party.emailAddress ?? '', Title: party.title ?? '' };
  return { objectType: 'Contact', objectId: `003${token(rng, 15)}`, now: fields, atCall: { ...fields } };
}

function uniqueLocalPart(used: Set<string>, base: string): string {
  let local = base;
  for (let n = 2; used.has(local); n += 1) local = `${base}${n}`;
  used.add(local);
  return local;
}

function domainOf(company: string): string {
  return `${fold(company)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}.example`;
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function token(rng: Prng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALNUM[rng.int(0, ALNUM.length - 1)];
  return out;
}

/** Compares numeric-string ids by value. Why: list order breaks time ties by id. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Lower-case ASCII rendering of a name, for e-mail addresses (`Ødegård` -> `odegard`). */
function fold(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[øØ]/g, 'o')
    .replace(/[łŁ]/g, 'l')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '');
}
