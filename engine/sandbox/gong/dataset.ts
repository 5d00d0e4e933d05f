/**
 * The in-memory store of the seeded Gong company: workspaces, users (avatars flagged), calls in
 * list order with their parties and CRM links, and per-call details built on first use.
 */
import { buildCallDetails, type CallDetails } from './call-details.js';
import type { CallRecord, GongMonologue, GongUser, GongWorkspace } from './records.js';

export type { CallRecord } from './records.js';

/** Counts of the seeded data, for tests. */
export interface GongCounts {
  workspaces: number;
  /** Users without avatars (what `GET /v2/users` lists by default). */
  users: number;
  activeUsers: number;
  inactiveUsers: number;
  /** Synthetic Gong-employee users, listed only with `includeAvatars=true`. */
  avatars: number;
  calls: number;
  privateCalls: number;
  callsByWorkspace: Record<string, number>;
}

/** Records in the order the API lists them, with id indexes. Reads only. */
export class GongDataset {
  readonly workspaces: readonly GongWorkspace[];
  /** Every user, avatars included, in id order. */
  readonly allUsers: readonly GongUser[];
  /** Calls by filter time, then id (the list order). */
  readonly callRecords: readonly CallRecord[];
  private readonly avatarIds: ReadonlySet<string>;
  private readonly usersById: Map<string, GongUser>;
  private readonly callsById: Map<string, CallRecord>;
  private readonly details = new Map<string, CallDetails>();

  constructor(
    private readonly seed: number,
    workspaces: GongWorkspace[],
    users: GongUser[],
    avatarIds: Set<string>,
    calls: CallRecord[],
  ) {
    this.workspaces = workspaces;
    this.allUsers = users;
    this.avatarIds = avatarIds;
    this.callRecords = calls;
    this.usersById = new Map(users.map((user) => [user.id, user]));
    this.callsById = new Map(calls.map((call) => [call.metaData.id, call]));
  }

  /** Users `GET /v2/users` lists: avatars only when asked for (C.3 `includeAvatars`). */
  users(includeAvatars = false): readonly GongUser[] {
    return includeAvatars ? this.allUsers : this.allUsers.filter((user) => !this.avatarIds.has(user.id));
  }

  /** A user by id, avatars included. Why: `GET /v2/users/{id}`. */
  user(id: string): GongUser | undefined {
    return this.usersById.get(id);
  }

  /** True for the synthetic Gong-employee users. Why: tests tell avatars apart. */
  isAvatar(id: string): boolean {
    return this.avatarIds.has(id);
  }

  /** A stored call by id. Why: `GET /v2/calls/{id}` and the callIds filter. */
  callRecord(id: string): CallRecord | undefined {
    return this.callsById.get(id);
  }

  /**
   * The call's content, interaction, collaboration and transcript, built once from the seed and
   * the call's position, so start-up stays fast and every run serves the same details.
   */
  callDetails(record: CallRecord): CallDetails {
    let details = this.details.get(record.metaData.id);
    if (!details) {
      details = buildCallDetails(this.seed, record, this.allUsers);
      this.details.set(record.metaData.id, details);
    }
    return details;
  }

  /** The transcript of a call (empty for calls without speech). Why: the transcript route and tests. */
  transcript(record: CallRecord): readonly GongMonologue[] {
    return this.callDetails(record).transcript;
  }

  /** Volumes of the seeded data. Why: tests compare what a client read with what was seeded. */
  counts(): GongCounts {
    const users = this.users(false);
    const callsByWorkspace: Record<string, number> = {};
    for (const workspace of this.workspaces) callsByWorkspace[workspace.id] = 0;
    let privateCalls = 0;
    for (const call of this.callRecords) {
      callsByWorkspace[call.metaData.workspaceId] = (callsByWorkspace[call.metaData.workspaceId] ?? 0) + 1;
      if (call.metaData.isPrivate) privateCalls += 1;
    }
    const active = users.filter((user) => user.active).length;
    return {
      workspaces: this.workspaces.length,
      users: users.length,
      activeUsers: active,
      inactiveUsers: users.length - active,
      avatars: this.avatarIds.size,
      calls: this.callRecords.length,
      privateCalls,
      callsByWorkspace,
    };
  }
}
