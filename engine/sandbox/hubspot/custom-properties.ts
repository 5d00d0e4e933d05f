/**
 * The fake portal's own properties on the standard object types (`hubspotDefined: false`), and
 * the values seeded records carry for them. They are never default properties: a list returns
 * them only when `properties=` names them (API-NOTES A4).
 */
import { createPrng, type Prng } from '../prng.js';
import type { HubspotDataset } from './dataset.js';
import type { PropertyDef } from './object-types.js';

const DAY = 86_400_000;

/** Partner tiers of the companies' `partner_tier` enumeration. */
export const PARTNER_TIERS = ['bronze', 'silver', 'gold', 'platinum'] as const;

const custom = (
  name: string,
  label: string,
  type: PropertyDef['type'],
  fieldType: string,
  groupName: string,
  extra: Partial<PropertyDef> = {},
): PropertyDef => ({
  name,
  label,
  type,
  fieldType,
  groupName,
  description: '',
  custom: true,
  ...extra,
});

/**
 * Custom property definitions per standard type. `seat_count` is a text property holding whole
 * numbers, so a test can turn it into a number property; `internal_score` is hidden and
 * `legacy_region` archived, as portals accumulate both.
 */
export const CUSTOM_PROPERTIES: Readonly<Record<string, readonly PropertyDef[]>> = {
  contacts: [
    custom('loyalty_points', 'Loyalty points', 'number', 'number', 'contactinformation'),
    custom('secondary_phone', 'Secondary phone', 'phone_number', 'phonenumber', 'contactinformation'),
  ],
  companies: [
    custom('partner_tier', 'Partner tier', 'enumeration', 'select', 'companyinformation', { options: PARTNER_TIERS }),
    custom('seats_licensed', 'Seats licensed', 'number', 'number', 'companyinformation'),
  ],
  deals: [
    custom('contract_months', 'Contract length (months)', 'number', 'number', 'dealinformation'),
    custom('renewal_date', 'Renewal date', 'date', 'date', 'dealinformation'),
    custom('seat_count', 'Seat count', 'string', 'text', 'dealinformation'),
    custom('internal_score', 'Internal score', 'number', 'number', 'dealinformation', { hidden: true }),
    custom('legacy_region', 'Legacy region', 'string', 'text', 'dealinformation', { archivedAt: '2024-06-03T10:15:00.000Z' }),
  ],
  tickets: [custom('escalation_level', 'Escalation level', 'number', 'number', 'ticketinformation')],
};

/** How each custom property's value is drawn; `undefined` leaves the record without one. */
const DRAWS: Record<string, Record<string, (rng: Prng) => string | undefined>> = {
  contacts: {
    loyalty_points: (rng) => (rng.chance(0.7) ? String(rng.int(0, 5000)) : undefined),
    secondary_phone: (rng) => (rng.chance(0.3) ? `+1 617 555 ${String(rng.int(0, 9999)).padStart(4, '0')}` : undefined),
  },
  companies: {
    partner_tier: (rng) => (rng.chance(0.6) ? rng.pick(PARTNER_TIERS) : undefined),
    seats_licensed: (rng) => (rng.chance(0.8) ? String(rng.int(1, 2000)) : undefined),
  },
  deals: {
    contract_months: (rng) => (rng.chance(0.85) ? String(rng.int(1, 60)) : undefined),
    renewal_date: (rng) => (rng.chance(0.7) ? new Date(Date.UTC(2025, 0, 1) + rng.int(0, 700) * DAY).toISOString().slice(0, 10) : undefined),
    seat_count: (rng) => (rng.chance(0.9) ? String(rng.int(1, 250)) : undefined),
    internal_score: (rng) => String(rng.int(0, 100)),
    legacy_region: (rng) => (rng.chance(0.2) ? rng.pick(['EMEA', 'AMER', 'APAC']) : undefined),
  },
  tickets: {
    escalation_level: (rng) => (rng.chance(0.5) ? String(rng.int(0, 3)) : undefined),
  },
};

/**
 * Gives the seeded records values for the custom properties, from a stream of their own (so the
 * rest of the seed, which tests count on, is the same as before these properties existed).
 * Why: a sync that discovers the custom properties must find values to copy.
 */
export function seedCustomValues(data: HubspotDataset, seed: number): void {
  const rng = createPrng(seed ^ 0x70726f70);
  for (const [typeName, draws] of Object.entries(DRAWS)) {
    for (const record of [...data.records(typeName, false), ...data.records(typeName, true)]) {
      for (const [name, draw] of Object.entries(draws)) {
        const value = draw(rng);
        if (value !== undefined) record.properties[name] = value;
      }
    }
  }
}
