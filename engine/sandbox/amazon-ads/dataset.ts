/**
 * The in-memory store of the seeded advertising account: profiles of every region, and the
 * portfolios and campaigns that belong to each profile (API-NOTES A.3-A.5).
 */
import { HOST_REGION, type AdsProfile, type AdsRegion, type CampaignRecord, type PortfolioRecord, type ProfileEntry } from './model.js';

/** Record counts of one profile. */
export interface ProfileCounts {
  portfolios: number;
  campaigns: number;
}

/**
 * Profiles in seed order, and per profile its portfolios and campaigns in id order.
 * Reads only: the fake serves the read side of the API.
 */
export class AdsDataset {
  private readonly entries: ProfileEntry[] = [];
  private readonly byProfile = new Map<number, { portfolios: PortfolioRecord[]; campaigns: CampaignRecord[] }>();

  /** Adds a profile (ids unique across regions). Why: every scoped record needs its profile first. */
  addProfile(entry: ProfileEntry): void {
    if (this.byProfile.has(entry.profile.profileId)) throw new Error(`duplicate profile ${entry.profile.profileId}`);
    this.entries.push(entry);
    this.byProfile.set(entry.profile.profileId, { portfolios: [], campaigns: [] });
  }

  /** Adds a portfolio to its profile. Why: A.4 data belongs to one advertiser profile. */
  addPortfolio(record: PortfolioRecord): void {
    this.owner(record.profileId).portfolios.push(record);
  }

  /** Adds a campaign to its profile. Why: A.5 data belongs to one advertiser profile. */
  addCampaign(record: CampaignRecord): void {
    this.owner(record.profileId).campaigns.push(record);
  }

  /** Sorts each profile's records by id. Why: list paging walks a stable order. */
  seal(): void {
    for (const collections of this.byProfile.values()) {
      collections.portfolios.sort((a, b) => a.portfolioId - b.portfolioId);
      collections.campaigns.sort((a, b) => a.campaignId - b.campaignId);
    }
  }

  /**
   * The main seller profile (the first NA profile): the one `describe()` configures and whose
   * collections scale with `records`. Why: tests and the sandbox need one default advertiser.
   */
  get mainProfileId(): number {
    const main = this.entries.find((entry) => entry.region === HOST_REGION);
    if (!main) throw new Error('the dataset has no profile in the host region');
    return main.profile.profileId;
  }

  /**
   * Profiles of one region (all regions when omitted), in seed order.
   * Why: A.1 `/v2/profiles` lists only the host region's profiles; tests also need the others.
   */
  profiles(region?: AdsRegion): AdsProfile[] {
    return this.entries.filter((entry) => region === undefined || entry.region === region).map((entry) => entry.profile);
  }

  /** The region of a profile, or undefined when no such profile exists. */
  regionOf(profileId: number): AdsRegion | undefined {
    return this.entries.find((entry) => entry.profile.profileId === profileId)?.region;
  }

  /** A profile served by this host (A.1: other regions' profiles are unknown here). */
  hostProfile(profileId: number): AdsProfile | undefined {
    const entry = this.entries.find((candidate) => candidate.profile.profileId === profileId);
    return entry?.region === HOST_REGION ? entry.profile : undefined;
  }

  /** A profile's portfolios in id order (empty for unknown profiles). */
  portfolios(profileId: number): readonly PortfolioRecord[] {
    return this.byProfile.get(profileId)?.portfolios ?? [];
  }

  /** A profile's campaigns in id order (empty for unknown profiles). */
  campaigns(profileId: number): readonly CampaignRecord[] {
    return this.byProfile.get(profileId)?.campaigns ?? [];
  }

  /** One portfolio of a profile. Why: v2 single reads only see the scoped profile's data. */
  findPortfolio(profileId: number, portfolioId: number): PortfolioRecord | undefined {
    return this.portfolios(profileId).find((record) => record.portfolioId === portfolioId);
  }

  /** One campaign of a profile. */
  findCampaign(profileId: number, campaignId: number): CampaignRecord | undefined {
    return this.campaigns(profileId).find((record) => record.campaignId === campaignId);
  }

  /** Counts per profile id. Why: tests assert totals without walking every page. */
  counts(): Record<string, ProfileCounts> {
    const out: Record<string, ProfileCounts> = {};
    for (const [profileId, collections] of this.byProfile) {
      out[String(profileId)] = { portfolios: collections.portfolios.length, campaigns: collections.campaigns.length };
    }
    return out;
  }

  private owner(profileId: number): { portfolios: PortfolioRecord[]; campaigns: CampaignRecord[] } {
    const collections = this.byProfile.get(profileId);
    if (!collections) throw new Error(`unknown profile ${profileId}`);
    return collections;
  }
}
