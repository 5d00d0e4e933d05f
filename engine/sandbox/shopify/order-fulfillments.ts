/**
 * The shipments of one seeded order (B.6 `orders/{id}/fulfillments.json`, `order.fulfillments`).
 */
import type { Prng } from '../prng.js';
import type { ShopifyFulfillment, ShopifyLineItem } from './model.js';
import { CARRIERS } from './seed-values.js';
import type { IdSequence } from './seed-tools.js';
import { DAY, HOUR, notAfterNow, SEED_NOW } from './seed-timeline.js';
import { shopTime } from './shop-time.js';

/** What the fulfillment seed needs to know about the order. */
export interface FulfillmentInput {
  orderId: number;
  orderName: string;
  lines: ShopifyLineItem[];
  processedMs: number;
  /** `fulfilled`: every line shipped; `partial`: some lines (needs two or more lines). */
  wanted: 'fulfilled' | 'partial' | null;
  locationId: number;
  /** Point-of-sale orders are handed over at the counter: no carrier, no tracking. */
  inStore: boolean;
}

/** The shipments and the order-level status they add up to. */
export interface FulfillmentOutcome {
  fulfillments: ShopifyFulfillment[];
  status: 'fulfilled' | 'partial' | null;
  lastEventMs: number;
}

/**
 * Ships the lines: everything (in one or, 30% of the time, two shipments) or a leading subset.
 * Shipped lines get `fulfillment_status: "fulfilled"` and `fulfillable_quantity: 0`; each
 * fulfillment embeds its lines (the same objects: the data is read-only once seeded).
 * Why: `order.fulfillment_status`, line items and `fulfillments.json` must agree, and some orders
 * need several fulfillments so that the fulfillments list has something to page through.
 */
export function seedFulfillments(rng: Prng, ids: IdSequence, input: FulfillmentInput): FulfillmentOutcome {
  const { lines } = input;
  const wanted = input.wanted === 'partial' && lines.length < 2 ? null : input.wanted;
  if (wanted === null) return { fulfillments: [], status: null, lastEventMs: input.processedMs };
  const shipped = wanted === 'partial' ? rng.int(1, lines.length - 1) : lines.length;
  const groups: ShopifyLineItem[][] =
    wanted === 'fulfilled' && lines.length >= 2 && !input.inStore && rng.chance(0.3)
      ? [lines.slice(0, Math.ceil(lines.length / 2)), lines.slice(Math.ceil(lines.length / 2))]
      : [lines.slice(0, shipped)];
  const fulfillments: ShopifyFulfillment[] = [];
  let atMs = input.inStore ? input.processedMs : notAfterNow(input.processedMs + rng.int(4, 72) * HOUR);
  groups.forEach((group, index) => {
    if (index > 0) atMs = notAfterNow(atMs + rng.int(1, 5) * DAY);
    for (const line of group) {
      line.fulfillment_status = 'fulfilled';
      line.fulfillable_quantity = 0;
    }
    const id = ids.next();
    const [carrier, trackingBase] = rng.pick(CARRIERS);
    const trackingNumber = input.inStore ? null : `1Z${String(id).slice(-10)}${rng.int(10, 99)}`;
    const delivered = SEED_NOW - atMs > 7 * DAY;
    fulfillments.push({
      id,
      admin_graphql_api_id: `gid://shopify/Fulfillment/${id}`,
      created_at: shopTime(atMs),
      location_id: input.locationId,
      name: `${input.orderName}.${index + 1}`,
      order_id: input.orderId,
      origin_address: {},
      receipt: {},
      service: 'manual',
      shipment_status: input.inStore ? null : delivered ? 'delivered' : 'in_transit',
      status: 'success',
      tracking_company: input.inStore ? null : carrier,
      tracking_number: trackingNumber,
      tracking_numbers: trackingNumber ? [trackingNumber] : [],
      tracking_url: trackingNumber ? `${trackingBase}${trackingNumber}` : null,
      tracking_urls: trackingNumber ? [`${trackingBase}${trackingNumber}`] : [],
      updated_at: shopTime(input.inStore || !delivered ? atMs : notAfterNow(atMs + rng.int(1, 5) * DAY)),
      line_items: group,
    });
  });
  const status = lines.every((line) => line.fulfillment_status === 'fulfilled') ? 'fulfilled' : 'partial';
  const lastEventMs = Math.max(...fulfillments.map((f) => Date.parse(f.updated_at)));
  return { fulfillments, status, lastEventMs };
}
