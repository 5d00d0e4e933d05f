/**
 * Deterministic seed of the HubSpot fake: contacts, companies, deals, tickets and `car` custom
 * objects, some archived, with associations and property histories.
 */
import { createPrng, type Prng } from '../prng.js';
import { HubspotDataset, type CrmRecord, type HistoryEntry, type RecordOrigin } from './dataset.js';
import { CAR_COLORS, CAR_FULLY_QUALIFIED_NAME, DEAL_STAGES, LIFECYCLE_STAGES, TICKET_CATEGORIES, TICKET_PRIORITIES, TICKET_STAGES } from './object-types.js';
import {
  ANCHOR_CONTACTS,
  CAR_MODELS,
  CITIES,
  COMPANY_FIRST,
  COMPANY_SECOND,
  FIRST_NAMES,
  FREE_MAIL_DOMAINS,
  INDUSTRIES,
  JOB_TITLES,
  LAST_NAMES,
  PRODUCTS,
  TICKET_SUBJECTS,
} from './seed-values.js';

/** Record volumes for a given `records` (the size of the largest collection, contacts). */
export interface SeedPlan {
  contacts: number;
  companies: number;
  deals: number;
  tickets: number;
  cars: number;
}

const DAY = 86_400_000;
const TIMELINE_START = Date.UTC(2023, 0, 1);
const TIMELINE_END = Date.UTC(2025, 5, 1);
const SEED_NOW = Date.UTC(2025, 5, 30, 12);
const ID_BASES: Record<string, number> = {
  contacts: 1001,
  companies: 3_000_001,
  deals: 5_000_001,
  tickets: 7_000_001,
  [CAR_FULLY_QUALIFIED_NAME]: 9_000_001,
};
const CRM_USERS = [4_117_001, 4_117_002, 4_117_003];

/**
 * The live-record volume per type: contacts = `records`, companies ~1/4, deals ~1/3, tickets ~1/6,
 * cars 50 (fewer if `records` is smaller).
 * Why: `--records N` sets the largest collection (DESIGN.md §8); the others keep CRM-like ratios.
 */
export function seedPlan(records: number): SeedPlan {
  if (!Number.isInteger(records) || records < 1) throw new RangeError(`records must be a positive integer, got ${records}`);
  return {
    contacts: records,
    companies: Math.max(1, Math.round(records / 4)),
    deals: Math.max(1, Math.round(records / 3)),
    tickets: Math.max(1, Math.round(records / 6)),
    cars: Math.min(50, records),
  };
}

/**
 * How many archived records a type with `live` records gets (2%, at least one).
 * Why: `archived=true` must return something for every type (A3, A8).
 */
export function archivedCount(live: number): number {
  return Math.max(1, Math.round(live / 50));
}

/**
 * Builds the dataset for `records` and `seed`.
 * Why: every fake request reads this one deterministic store.
 */
export function seedHubspotData(records: number, seed: number): HubspotDataset {
  const plan = seedPlan(records);
  const rng = createPrng(seed);
  const data = new HubspotDataset();
  const companies = seedCompanies(data, rng, plan.companies);
  const contacts = seedContacts(data, rng, plan.contacts, companies);
  const deals = seedDeals(data, rng, plan.deals, companies, contacts);
  seedTickets(data, rng, plan.tickets, companies, contacts, deals);
  seedCars(data, rng, plan.cars, contacts);
  return data;
}

interface Slot {
  index: number;
  liveIndex: number;
  archived: boolean;
  id: string;
  numericId: number;
  createdMs: number;
  updatedMs: number;
}

/** Lays out ids and timestamps for live + archived records, archived ones spread evenly. */
function slots(rng: Prng, typeName: string, live: number): Slot[] {
  const archived = archivedCount(live);
  const total = live + archived;
  const archivedAt = new Set<number>();
  for (let k = 0; k < archived; k += 1) archivedAt.add(Math.min(total - 1, Math.floor(((k + 0.5) * total) / archived)));
  const span = (TIMELINE_END - TIMELINE_START) / total;
  const out: Slot[] = [];
  let numericId = ID_BASES[typeName] ?? 1;
  let liveIndex = 0;
  for (let index = 0; index < total; index += 1) {
    if (index > 0) numericId += 1 + (rng.chance(0.25) ? rng.int(1, 3) : 0);
    const createdMs = Math.round(TIMELINE_START + (index + rng.next() * 0.9) * span);
    const updatedMs = Math.min(SEED_NOW, createdMs + rng.int(0, 90 * DAY));
    const isArchived = archivedAt.has(index);
    out.push({ index, liveIndex: isArchived ? -1 : liveIndex, archived: isArchived, id: String(numericId), numericId, createdMs, updatedMs });
    if (!isArchived) liveIndex += 1;
  }
  return out;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function origin(rng: Prng): RecordOrigin {
  const roll = rng.int(0, 3);
  if (roll === 0) return { sourceType: 'IMPORT', sourceId: String(rng.int(10_000_000, 99_999_999)) };
  if (roll === 1) return { sourceType: 'API', sourceId: 'sample-integration' };
  const user = rng.pick(CRM_USERS);
  return { sourceType: 'CRM_UI', sourceId: `userId:${user}`, updatedByUserId: user };
}

function makeRecord(rng: Prng, slot: Slot, properties: Record<string, string | undefined>, timestamps: { created: string; modified: string }): CrmRecord {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(properties)) if (value !== undefined && value !== '') clean[name] = value;
  const createdAt = iso(slot.createdMs);
  const updatedAt = iso(slot.updatedMs);
  clean[timestamps.created] = createdAt;
  clean[timestamps.modified] = updatedAt;
  clean['hs_object_id'] = slot.id;
  const record: CrmRecord = {
    id: slot.id,
    numericId: slot.numericId,
    properties: clean,
    history: {},
    origin: origin(rng),
    createdAt,
    updatedAt,
    archived: slot.archived,
  };
  if (slot.archived) record.archivedAt = iso(Math.min(SEED_NOW, slot.updatedMs + rng.int(1, 30) * DAY));
  return record;
}

/**
 * Gives `property` a history of 1-3 values ending in its current value, newest first.
 * The older values come from `older` (picked so they differ from the newer ones where possible).
 */
function addHistory(rng: Prng, record: CrmRecord, property: string, older: () => string): void {
  const current = record.properties[property];
  if (current === undefined) return;
  const createdMs = Date.parse(record.createdAt);
  const updatedMs = Date.parse(record.updatedAt);
  const count = rng.int(1, 3);
  const entries: HistoryEntry[] = [];
  let previous = current;
  for (let k = 0; k < count; k += 1) {
    const value = k === 0 ? current : pickDifferent(older, previous);
    const last = k === count - 1;
    const timestamp = last ? record.createdAt : k === 0 ? record.updatedAt : iso(Math.round(updatedMs - ((updatedMs - createdMs) * k) / count));
    const source = last ? record.origin : origin(rng);
    entries.push({ value, timestamp, ...source });
    previous = value;
  }
  record.history[property] = entries;
}

function pickDifferent(draw: () => string, avoid: string): string {
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const value = draw();
    if (value !== avoid) return value;
  }
  return draw();
}

/** Lower-case ASCII rendering of a name, for emails and domains (`Ødegård` -> `odegard`). */
function fold(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[øØ]/g, 'o')
    .replace(/ß/g, 'ss')
    .replace(/[łŁ]/g, 'l')
    .replace(/[æÆ]/g, 'ae')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

interface CompanyInfo {
  id: string;
  name: string;
  domain: string;
}

function seedCompanies(data: HubspotDataset, rng: Prng, live: number): CompanyInfo[] {
  const seen = new Map<string, number>();
  const out: CompanyInfo[] = [];
  for (const slot of slots(rng, 'companies', live)) {
    const base = `${rng.pick(COMPANY_FIRST)} ${rng.pick(COMPANY_SECOND)}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const name = n === 1 ? base : `${base} ${n}`;
    const domain = `${fold(name)}.example`;
    const [city, country] = rng.pick(CITIES);
    const record = makeRecord(
      rng,
      slot,
      {
        name,
        domain,
        website: `https://www.${domain}`,
        industry: rng.pick(INDUSTRIES),
        phone: rng.chance(0.6) ? `+1 617 555 ${String(rng.int(0, 9999)).padStart(4, '0')}` : undefined,
        city,
        country,
        numberofemployees: String(rng.int(1, 5000)),
        annualrevenue: rng.chance(0.8) ? String(rng.int(10, 50_000) * 1000) : undefined,
      },
      { created: 'createdate', modified: 'hs_lastmodifieddate' },
    );
    addHistory(rng, record, 'numberofemployees', () => String(rng.int(1, 5000)));
    data.add('companies', record);
    if (!slot.archived) out.push({ id: slot.id, name, domain });
  }
  return out;
}

function seedContacts(data: HubspotDataset, rng: Prng, live: number, companies: CompanyInfo[]): string[] {
  const out: string[] = [];
  for (const slot of slots(rng, 'contacts', live)) {
    const anchor = slot.archived ? undefined : ANCHOR_CONTACTS[slot.liveIndex];
    const company = rng.chance(0.75) ? rng.pick(companies) : undefined;
    const firstname = anchor?.firstname ?? rng.pick(FIRST_NAMES);
    const lastname = anchor?.lastname ?? rng.pick(LAST_NAMES);
    const mailDomain = company?.domain ?? rng.pick(FREE_MAIL_DOMAINS);
    const email = anchor?.email ?? `${fold(firstname) || 'contact'}.${fold(lastname) || 'person'}${slot.index}@${mailDomain}`;
    const [city, country] = rng.pick(CITIES);
    const stage = rng.int(0, LIFECYCLE_STAGES.length - 1);
    const record = makeRecord(
      rng,
      slot,
      {
        email,
        firstname,
        lastname,
        phone: rng.chance(0.7) ? `+1 617 555 ${String(rng.int(0, 9999)).padStart(4, '0')}` : undefined,
        company: company?.name,
        jobtitle: rng.chance(0.6) ? rng.pick(JOB_TITLES) : undefined,
        city,
        country,
        lifecyclestage: LIFECYCLE_STAGES[stage],
      },
      { created: 'createdate', modified: 'lastmodifieddate' },
    );
    addHistory(rng, record, 'lifecyclestage', () => LIFECYCLE_STAGES[rng.int(0, stage)] ?? 'subscriber');
    addHistory(rng, record, 'jobtitle', () => rng.pick(JOB_TITLES));
    data.add('contacts', record);
    if (slot.archived) continue;
    out.push(slot.id);
    if (company) data.associate('contacts', slot.id, 'companies', company.id);
  }
  return out;
}

function seedDeals(data: HubspotDataset, rng: Prng, live: number, companies: CompanyInfo[], contacts: string[]): string[] {
  const out: string[] = [];
  for (const slot of slots(rng, 'deals', live)) {
    const company = rng.pick(companies);
    const stage = rng.int(0, DEAL_STAGES.length - 1);
    const amount = rng.chance(0.2) ? (rng.int(50_000, 25_000_000) / 100).toFixed(2) : String(rng.int(5, 2500) * 100);
    const record = makeRecord(
      rng,
      slot,
      {
        dealname: `${company.name} – ${rng.pick(PRODUCTS)}`,
        amount,
        closedate: iso(Date.UTC(2023, 0, 1) + rng.int(0, 900) * DAY),
        pipeline: 'default',
        dealstage: DEAL_STAGES[stage],
        dealtype: rng.chance(0.6) ? 'newbusiness' : 'existingbusiness',
        description: rng.chance(0.5) ? `Opportunity with ${company.name}` : undefined,
      },
      { created: 'createdate', modified: 'hs_lastmodifieddate' },
    );
    addHistory(rng, record, 'dealstage', () => DEAL_STAGES[rng.int(0, Math.min(stage, 4))] ?? 'appointmentscheduled');
    addHistory(rng, record, 'amount', () => String(rng.int(5, 2500) * 100));
    data.add('deals', record);
    if (slot.archived) continue;
    out.push(slot.id);
    data.associate('deals', slot.id, 'companies', company.id);
    const people = rng.int(1, 3);
    for (let k = 0; k < people; k += 1) data.associate('deals', slot.id, 'contacts', rng.pick(contacts));
  }
  return out;
}

function seedTickets(data: HubspotDataset, rng: Prng, live: number, companies: CompanyInfo[], contacts: string[], deals: string[]): void {
  for (const slot of slots(rng, 'tickets', live)) {
    const subject = rng.pick(TICKET_SUBJECTS);
    const record = makeRecord(
      rng,
      slot,
      {
        subject,
        content: `Customer reports: ${subject.toLowerCase()}. Reference ${slot.id}.`,
        hs_pipeline: '0',
        hs_pipeline_stage: rng.pick(TICKET_STAGES),
        hs_ticket_category: rng.pick(TICKET_CATEGORIES),
        hs_ticket_priority: rng.pick(TICKET_PRIORITIES),
        hs_ticket_id: slot.id,
      },
      { created: 'createdate', modified: 'hs_lastmodifieddate' },
    );
    addHistory(rng, record, 'hs_pipeline_stage', () => rng.pick(TICKET_STAGES));
    addHistory(rng, record, 'hs_ticket_priority', () => rng.pick(TICKET_PRIORITIES));
    data.add('tickets', record);
    if (slot.archived) continue;
    data.associate('tickets', slot.id, 'contacts', rng.pick(contacts));
    if (rng.chance(0.5)) data.associate('tickets', slot.id, 'companies', rng.pick(companies).id);
    if (rng.chance(0.3)) data.associate('tickets', slot.id, 'deals', rng.pick(deals));
  }
}

function seedCars(data: HubspotDataset, rng: Prng, live: number, contacts: string[]): void {
  const vinAlphabet = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
  for (const slot of slots(rng, CAR_FULLY_QUALIFIED_NAME, live)) {
    const [make, model] = rng.pick(CAR_MODELS);
    let vin = '';
    for (let k = 0; k < 13; k += 1) vin += vinAlphabet[rng.int(0, vinAlphabet.length - 1)];
    vin += String(slot.index).padStart(4, '0');
    const record = makeRecord(
      rng,
      slot,
      {
        make,
        model,
        year: String(rng.int(2005, 2025)),
        vin,
        color: rng.pick(CAR_COLORS),
        price: String(rng.int(40, 900) * 100),
      },
      { created: 'hs_createdate', modified: 'hs_lastmodifieddate' },
    );
    addHistory(rng, record, 'price', () => String(rng.int(40, 900) * 100));
    data.add(CAR_FULLY_QUALIFIED_NAME, record);
    if (!slot.archived && rng.chance(0.7)) data.associate(CAR_FULLY_QUALIFIED_NAME, slot.id, 'contacts', rng.pick(contacts));
  }
}
