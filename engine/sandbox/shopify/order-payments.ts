/**
 * The payment history of one seeded order: its transactions and refunds (B.6
 * `orders/{id}/transactions.json`, `order.refunds`).
 */
import type { Prng } from '../prng.js';
import { money, moneySet, SHOP_CURRENCY } from './money.js';
import type { ShopifyOrder, ShopifyRefund, ShopifyTransaction } from './model.js';
import type { IdSequence } from './seed-tools.js';
import { DAY, HOUR, notAfterNow } from './seed-timeline.js';
import { shopTime } from './shop-time.js';

/** Shopify's order financial statuses. */
export type FinancialStatus = ShopifyOrder['financial_status'];

/** What the payment seed needs to know about the order. */
export interface PaymentInput {
  orderId: number;
  orderName: string;
  totalCents: number;
  processedMs: number;
  financial: FinancialStatus;
  /** Set for cancelled orders: the void or refund happens then. */
  cancelledMs: number | undefined;
  buyerName: string;
}

/** The seeded payment history. */
export interface PaymentOutcome {
  transactions: ShopifyTransaction[];
  refunds: ShopifyRefund[];
  refundedCents: number;
  /** Still owed by the buyer (`total_outstanding`). */
  outstandingCents: number;
  gatewayNames: string[];
  lastEventMs: number;
}

interface Ids {
  transactions: IdSequence;
  refunds: IdSequence;
}

const CARDS: ReadonlyArray<readonly [string, string, string, string]> = [
  ['Visa', 'visa', '424242', '4242'],
  ['Mastercard', 'master', '555555', '4444'],
  ['American Express', 'american_express', '378282', '0005'],
];

/**
 * Builds the transactions that lead to `financial`: a sale (or authorization then capture) for
 * paid orders, a pending manual sale, an open authorization, half a manual payment, a sale plus a
 * partial or full refund, or an authorization voided on cancellation.
 * Why: `transactions.json` must tell the same story as `financial_status`, and refunds must match
 * `current_total_price`.
 */
export function seedPayments(rng: Prng, ids: Ids, input: PaymentInput): PaymentOutcome {
  const { totalCents, processedMs, financial } = input;
  const manual = financial === 'pending' || financial === 'partially_paid';
  const gateway = manual ? 'manual' : 'shopify_payments';
  const card = rng.pick(CARDS);
  const transactions: ShopifyTransaction[] = [];
  const refunds: ShopifyRefund[] = [];
  let refundedCents = 0;
  let lastEventMs = processedMs;
  const add = (
    kind: ShopifyTransaction['kind'],
    status: ShopifyTransaction['status'],
    cents: number,
    atMs: number,
    parentId: number | null,
  ): ShopifyTransaction => {
    const transaction = buildTransaction(
      ids.transactions.next(),
      input,
      kind,
      status,
      cents,
      atMs,
      gateway,
      parentId,
      transactions.length + 1,
      manual ? undefined : card,
    );
    transactions.push(transaction);
    lastEventMs = Math.max(lastEventMs, atMs);
    return transaction;
  };
  const refund = (cents: number, atMs: number, parentId: number): void => {
    const transaction = add('refund', 'success', cents, atMs, parentId);
    delete transaction['payment_details'];
    refundedCents += cents;
    refunds.push(refundRecord(ids.refunds.next(), input.orderId, atMs, transaction, rng.pick(REFUND_NOTES)));
  };

  const cancelledMs = input.cancelledMs;
  switch (financial) {
    case 'paid': {
      if (rng.chance(0.4)) {
        const authorization = add('authorization', 'success', totalCents, processedMs, null);
        add('capture', 'success', totalCents, notAfterNow(processedMs + rng.int(1, 48) * HOUR), authorization.id);
      } else add('sale', 'success', totalCents, processedMs, null);
      break;
    }
    case 'pending':
      add('sale', 'pending', totalCents, processedMs, null);
      break;
    case 'authorized':
      add('authorization', 'success', totalCents, processedMs, null);
      break;
    case 'partially_paid':
      add('sale', 'success', Math.round(totalCents / 2), processedMs, null);
      break;
    case 'partially_refunded': {
      const sale = add('sale', 'success', totalCents, processedMs, null);
      refund(Math.max(1, Math.round((totalCents * rng.int(10, 60)) / 100)), notAfterNow(processedMs + rng.int(3, 25) * DAY), sale.id);
      break;
    }
    case 'refunded': {
      const sale = add('sale', 'success', totalCents, processedMs, null);
      refund(totalCents, notAfterNow(cancelledMs ?? processedMs + rng.int(2, 20) * DAY), sale.id);
      break;
    }
    case 'voided': {
      const authorization = add('authorization', 'success', totalCents, processedMs, null);
      add('void', 'success', 0, cancelledMs ?? notAfterNow(processedMs + DAY), authorization.id);
      break;
    }
  }

  const unsettled = financial === 'authorized' ? totalCents : 0;
  for (const transaction of transactions) transaction.total_unsettled_set = unsettledSet(unsettled);
  return { transactions, refunds, refundedCents, outstandingCents: outstandingOf(financial, totalCents), gatewayNames: [gateway], lastEventMs };
}

/** What the customer still owes: all of a pending or authorized order, the unpaid half of a partially paid one. */
function outstandingOf(financial: PaymentInput['financial'], totalCents: number): number {
  if (financial === 'pending' || financial === 'authorized') return totalCents;
  return financial === 'partially_paid' ? totalCents - Math.round(totalCents / 2) : 0;
}

const REFUND_NOTES = ['Damaged in transit', 'Customer changed their mind', 'Wrong size', null] as const;

/** A refund as Shopify answers it (Refund resource, upstream-specs), with its one refund transaction. */
function refundRecord(id: number, orderId: number, atMs: number, transaction: ShopifyTransaction, note: string | null): ShopifyRefund {
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Refund/${id}`,
    created_at: shopTime(atMs),
    note,
    order_id: orderId,
    processed_at: shopTime(atMs),
    restock: false,
    total_additional_fees_set: moneySet(0),
    total_duties_set: moneySet(0),
    user_id: null,
    order_adjustments: [],
    transactions: [transaction],
    refund_line_items: [],
    duties: [],
    additional_fees: [],
  };
}

function buildTransaction(
  id: number,
  input: PaymentInput,
  kind: ShopifyTransaction['kind'],
  status: ShopifyTransaction['status'],
  cents: number,
  atMs: number,
  gateway: string,
  parentId: number | null,
  sequence: number,
  card: readonly [string, string, string, string] | undefined,
): ShopifyTransaction {
  const at = shopTime(atMs);
  const head = {
    id,
    order_id: input.orderId,
    kind,
    gateway,
    status,
    message: status === 'pending' ? 'Awaiting payment on delivery' : null,
    created_at: at,
    test: false,
    authorization: card ? `ch_${id.toString(36)}` : null,
    location_id: null,
    user_id: null,
    parent_id: parentId,
    processed_at: at,
    device_id: null,
    error_code: null,
    source_name: 'web',
  };
  const tail = {
    receipt: {},
    currency_exchange_adjustment: null,
    amount: money(cents),
    currency: SHOP_CURRENCY,
    payment_id: `${input.orderName}.${sequence}`,
    total_unsettled_set: unsettledSet(0),
    manual_payment_gateway: gateway === 'manual',
    amount_rounding: null,
    admin_graphql_api_id: `gid://shopify/OrderTransaction/${id}`,
  };
  if (!card) return { ...head, ...tail };
  // Card payments carry payment_details between source_name and receipt (2025-01 fixture).
  const [company, method, bin, last4] = card;
  const paymentDetails = {
    credit_card_bin: bin,
    avs_result_code: 'Y',
    cvv_result_code: 'M',
    credit_card_number: `•••• •••• •••• ${last4}`,
    credit_card_company: company,
    buyer_action_info: null,
    credit_card_name: input.buyerName,
    credit_card_wallet: null,
    credit_card_expiration_month: (id % 12) + 1,
    credit_card_expiration_year: 2027 + (id % 4),
    payment_method_name: method,
  };
  return { ...head, payment_details: paymentDetails, ...tail };
}

/**
 * `total_unsettled_set` as the 2025-01 fixture writes it: `{amount, currency}` (not `currency_code`),
 * amounts like `"348.0"` with at least one decimal.
 */
function unsettledSet(cents: number): ShopifyTransaction['total_unsettled_set'] {
  const value = cents / 100;
  const amount = Number.isInteger(value) ? value.toFixed(1) : String(value);
  return { presentment_money: { amount, currency: SHOP_CURRENCY }, shop_money: { amount, currency: SHOP_CURRENCY } };
}
