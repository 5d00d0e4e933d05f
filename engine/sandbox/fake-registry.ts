/**
 * The fake upstreams the sandbox starts, in port order. Adding an upstream (asana, amazon-ads,
 * shopify, gong) means adding its fake to {@link SandboxFakes} and one entry to {@link FAKE_STARTERS}.
 */
import { startAmazonAdsFake, type AmazonAdsFake } from './amazon-ads/index.js';
import { startAsanaFake, type AsanaFake } from './asana/index.js';
import { startGongFake, type GongFake } from './gong/index.js';
import { startShopifyFake, type ShopifyFake } from './shopify/index.js';
import { startHubspotFake, type HubspotFake } from './hubspot/index.js';
import type { FakeStartOptions, RunningFake } from './fake-types.js';

export type { FakeStartOptions, RunningFake } from './fake-types.js';

/** The running fakes by connector type. */
export interface SandboxFakes {
  hubspot: HubspotFake;
  asana: AsanaFake;
  'amazon-ads': AmazonAdsFake;
  shopify: ShopifyFake;
  gong: GongFake;
}

type Starter<K extends keyof SandboxFakes> = {
  type: K;
  start: (options: FakeStartOptions) => Promise<SandboxFakes[K] & RunningFake>;
};

/**
 * One starter per connector type, in the order ports are assigned (`--port N` gives the first
 * fake N, the next N+1, ...).
 */
export const FAKE_STARTERS: ReadonlyArray<{ [K in keyof SandboxFakes]: Starter<K> }[keyof SandboxFakes]> = [
  { type: 'hubspot', start: (options) => startHubspotFake(options) },
  { type: 'asana', start: (options) => startAsanaFake(options) },
  { type: 'amazon-ads', start: (options) => startAmazonAdsFake(options) },
  { type: 'shopify', start: (options) => startShopifyFake(options) },
  { type: 'gong', start: (options) => startGongFake(options) },
];
