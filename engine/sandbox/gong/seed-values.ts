/**
 * Word lists the Gong seed draws from. Names repeat and several are non-ASCII, so that clients
 * meet shared and unicode values in users, parties and call titles.
 */

export const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Grace',
  'Linus',
  'Margaret',
  'Dennis',
  'Barbara',
  'Ken',
  'Radia',
  'Tim',
  'José',
  'Zoë',
  'Søren',
  'Björn',
  'Chloé',
  'François',
  'Łukasz',
  'Renée',
  'Jürgen',
  'Ørjan',
  'Ana',
  'Mateo',
  'Aiko',
  'Chen',
  'Priya',
  'Olu',
  'Fatima',
  'Siobhán',
  'Dmitri',
  'Jon',
] as const;

export const LAST_NAMES = [
  'Lovelace',
  'Turing',
  'Hopper',
  'Torvalds',
  'Hamilton',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Perlman',
  'Snow',
  'Núñez',
  'Müller',
  'Ødegård',
  'Dubois',
  'Wiśniewski',
  'García',
  'Yamamoto',
  'Okafor',
  'Kowalski',
  'Tanaka',
  'Smith',
  'Johnson',
  'Brown',
  'Martin',
  'Rossi',
  'Novák',
  'Popescu',
  'Ivanova',
  'Haddad',
  'Byrne',
] as const;

/** Titles of the company's own users (the sales team Gong records). */
export const USER_TITLES = [
  'Account Executive',
  'Enterprise Account Executive',
  'Sales Development Representative',
  'Customer Success Manager',
  'Solutions Engineer',
  'Sales Manager',
  'Regional Sales Director',
] as const;

/** The titles of the top of the hierarchy (user 0 is the head of sales, the next few are managers). */
export const LEADER_TITLES = ['VP of Sales', 'Sales Manager'] as const;

/** Prospect companies the calls are held with. */
export const PROSPECT_COMPANIES = [
  'Northwind Traders',
  'Contoso',
  'Globex',
  'Initech',
  'Umbrella Labs',
  'Stark Logistics',
  'Acme',
  'Hooli',
  'Vandelay Industries',
  'Müller Bau',
  'Société Générale Analytics',
  'Nordisk Foods',
  'Øresund Energy',
  'Café Zürich',
] as const;

/** Titles of external call participants. */
export const PROSPECT_TITLES = ['CTO', 'Head of Operations', 'Procurement Lead', 'VP Engineering', 'Founder', 'IT Manager', 'CFO'] as const;

/** What a call is about; the first part of its title. */
export const CALL_KINDS = ['Discovery', 'Demo', 'Pricing review', 'Onboarding', 'Quarterly business review', 'Follow-up', 'Negotiation'] as const;

/** Internal (all-company) call titles. */
export const INTERNAL_TITLES = ['Pipeline review', 'Deal desk', 'Team stand-up', 'Forecast call', '1:1'] as const;

/** Web-conference systems (direction Conference, media Video). */
export const CONFERENCE_SYSTEMS = [
  { system: 'Zoom', meetingUrl: (n: string) => `https://zoom.us/j/${n}` },
  { system: 'Google Meet', meetingUrl: (n: string) => `https://meet.google.com/${n.slice(0, 3)}-${n.slice(3, 7)}-${n.slice(7, 10)}` },
  { system: 'Microsoft Teams', meetingUrl: (n: string) => `https://teams.microsoft.com/l/meetup-join/${n}` },
] as const;

/** Telephony systems (direction Inbound/Outbound, media Audio). */
export const TELEPHONY_SYSTEMS = ['Outreach', 'RingCentral', 'Aircall', 'Salesloft'] as const;

/** SDR dispositions of telephony calls (the spec's example is "Got the gatekeeper"). */
export const SDR_DISPOSITIONS = ['Got the gatekeeper', 'Connected', 'Left voicemail', 'No answer', 'Meeting booked'] as const;

/** Call languages (ISO-639-2B, C.3), weighted towards English; `und` and `zxx` appear too. */
export const CALL_LANGUAGES = ['eng', 'eng', 'eng', 'eng', 'eng', 'eng', 'spa', 'fre', 'ger', 'ita', 'und', 'zxx'] as const;

/** BCP-47 languages users speak (UserMetadata.spokenLanguages). */
export const SPOKEN_LANGUAGES = ['en-US', 'en-GB', 'es-ES', 'fr-FR', 'de-DE', 'it-IT', 'ja-JP'] as const;

/** Call topics (content.topics, transcript monologue topics). */
export const TOPICS = ['Call Setup', 'Small Talk', 'Product', 'Pricing', 'Objections', 'Next Steps', 'Wrap-up'] as const;

/** Trackers of the company: [name, type, phrases]. */
export const TRACKERS: ReadonlyArray<readonly [string, 'KEYWORD' | 'SMART', readonly string[]]> = [
  ['Competitors', 'KEYWORD', ['Chorus', 'Clari', 'Salesforce']],
  ['Pricing', 'KEYWORD', ['discount', 'price', 'budget']],
  ['Security', 'KEYWORD', ['SOC 2', 'GDPR', 'encryption']],
  ['Next steps', 'SMART', []],
  ['Pain points', 'SMART', []],
];

/** Call outcomes set by Gong AI: [id, category, name]. */
export const CALL_OUTCOMES: ReadonlyArray<readonly [string, string, string]> = [
  ['8871104000152342', 'Positive', 'Meeting booked'],
  ['8871104000152343', 'Positive', 'Deal progressed'],
  ['8871104000152344', 'Neutral', 'Follow-up needed'],
  ['8871104000152345', 'Negative', 'Not interested'],
];

/** Video segment types (VideoInteractionDto.name). */
export const VIDEO_SEGMENTS = ['Browser', 'Presentation', 'WebcamPrimaryUser', 'WebcamNonCompany', 'Webcam'] as const;

/** Sentences transcripts and summaries are made of. */
export const SENTENCES = [
  'Thanks for making the time today.',
  'Could you walk me through how your team handles this now?',
  'We looked at a couple of other vendors last quarter.',
  'Pricing depends on the number of seats and the plan.',
  'Security review is usually the longest step for us.',
  'Let me share my screen and show you the dashboard.',
  'What would success look like six months from now?',
  'We need to get procurement involved before we sign.',
  'I will send over the proposal by Friday.',
  'Does the integration work with our CRM?',
  'Our budget for this is approved for the next fiscal year.',
  'Can we schedule a follow-up with your technical team?',
  'That makes sense, and it matches what we heard from others.',
  'The onboarding usually takes about two weeks.',
  'Ça marche, on se reparle la semaine prochaine.',
  'Wir brauchen noch die Zustimmung vom Einkauf.',
] as const;

/** Public comment texts (CommentDto.comment). */
export const COMMENTS = [
  'Great discovery questions here.',
  'Pricing objection handled well.',
  'We should loop in legal on this one.',
  'Competitor mentioned, worth a note in the CRM.',
  'Nice demo flow!',
] as const;
