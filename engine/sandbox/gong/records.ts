/**
 * Gong record shapes as the API serves them (API-NOTES C.3; spec schemas `UserMetadata`,
 * `CallBasicData`, `Party`, `WorkspaceMetadata`, `Monologue`). Absent values are omitted, never
 * null: the spec declares no nullable field, and the fake's responses must validate against it.
 */

/** `Settings` of a user (C.3). */
export interface GongUserSettings {
  webConferencesRecorded: boolean;
  preventWebConferenceRecording: boolean;
  telephonyCallsImported: boolean;
  emailsImported: boolean;
  preventEmailImport: boolean;
  nonRecordedMeetingsImported: boolean;
  gongConnectEnabled: boolean;
}

/** `UserMetadata` (C.3): `id` is a numeric string of up to 20 digits. */
export interface GongUser {
  id: string;
  emailAddress: string;
  created: string;
  active: boolean;
  emailAliases: string[];
  trustedEmailAddress: string;
  firstName: string;
  lastName: string;
  title: string;
  phoneNumber?: string;
  extension?: string;
  personalMeetingUrls: string[];
  settings: GongUserSettings;
  managerId?: string;
  meetingConsentPageUrl: string;
  spokenLanguages: Array<{ language: string; primary: boolean }>;
}

/** `CallBasicData` (C.3), the `call` of `GET /v2/calls/{id}` and the `metaData` of extensive calls. */
export interface GongCall {
  id: string;
  url: string;
  title: string;
  scheduled: string;
  started: string;
  duration: number;
  primaryUserId: string;
  direction: 'Inbound' | 'Outbound' | 'Conference' | 'Unknown';
  system: string;
  scope: 'Internal' | 'External' | 'Unknown';
  media: 'Video' | 'Audio';
  language: string;
  workspaceId: string;
  sdrDisposition?: string;
  clientUniqueId?: string;
  customData?: string;
  purpose?: string;
  meetingUrl?: string;
  isPrivate: boolean;
  calendarEventId?: string;
}

/** `Party` (C.3) without its CRM `context`, which depends on the content selector. */
export interface GongParty {
  id: string;
  emailAddress?: string;
  name?: string;
  title?: string;
  userId?: string;
  /** Present for participants who spoke; transcripts refer to it (C.3). */
  speakerId?: string;
  affiliation: 'Internal' | 'External' | 'Unknown';
  phoneNumber?: string;
  methods?: Array<'Invitee' | 'Attendee'>;
}

/** `WorkspaceMetadata` (C.3: `{id, name, description}`). */
export interface GongWorkspace {
  id: string;
  name: string;
  description: string;
}

/** One `Monologue` of a transcript; `start`/`end` are milliseconds from the start of the call. */
export interface GongMonologue {
  speakerId: string;
  topic: string;
  sentences: Array<{ start: number; end: number; text: string }>;
}

/** A CRM object linked to a call or a party (`CallContextDto`/`PartyContextDto` objects). */
export interface CrmLink {
  objectType: 'Opportunity' | 'Account' | 'Contact';
  objectId: string;
  /** Field values now (`timing: Now`). */
  now: Record<string, string | number>;
  /** Field values when the call took place (`timing: TimeOfCall`). */
  atCall: Record<string, string | number>;
}

/** A stored call: the served metadata plus what the extensive and transcript routes add. */
export interface CallRecord {
  metaData: GongCall;
  /**
   * The instant date filters compare (C.3 CallsFilter: "For web-conference calls recorded by
   * Gong, the date denotes its scheduled time, otherwise, it denotes its actual start time").
   */
  timeMs: number;
  /** Position in list order; seeds the call's lazily built details. */
  index: number;
  parties: GongParty[];
  /** CRM objects of the call (context, C.3); empty for internal calls. */
  crm: CrmLink[];
  /** CRM contacts of external parties, by party id. */
  partyCrm: Map<string, CrmLink>;
}
