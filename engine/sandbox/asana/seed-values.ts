/**
 * Word lists the Asana seed draws from. Names include non-ASCII letters so that clients meet
 * unicode in task, project and user names.
 */

/** Given names of seeded users (with accents, so clients meet unicode). */
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
  'Aiko',
  'Mateo',
  'Chen',
  'Priya',
  'Olu',
  'Fatima',
  'Siobhán',
  'Dmitri',
  'Ana',
  'Kofi',
  'Ingrid',
] as const;

/** Family names of seeded users. */
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
  'Berners-Lee',
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
  'Mensah',
] as const;

/** The premium organization's teams: name and description. */
export const TEAM_NAMES = [
  ['Engineering', 'Builds and runs the robot fleet software.'],
  ['Design', 'Product, brand and industrial design.'],
  ['Marketing', 'Campaigns, content and launches.'],
  ['Operations', 'Supply chain, facilities and manufacturing.'],
  ['Customer Success', 'Onboarding, support and renewals.'],
] as const;

/** The big project comes first; the last two premium projects are archived. */
export const PROJECT_NAMES = [
  'Platform Roadmap',
  'Website Relaunch',
  'Q3 Hiring Plan',
  'Gripper v2',
  'Warehouse Pilot',
  'Brand Refresh',
  'Support Playbook',
  'Firmware Releases',
  'Trade Show 2025',
  'Pricing Study',
  'Security Audit',
  'Partner Portal',
  'Data Warehouse',
  'Field Trials',
  'Onboarding Revamp',
  'Localization',
] as const;

/** Projects of the free workspace. */
export const FREE_PROJECT_NAMES = ['Home Renovation', 'Reading List', 'Side Project: Café App'] as const;

/** Section names in board order; every project ends with `Done`, where its completed tasks sit. */
export const SECTION_NAMES = ['Backlog', 'To do', 'In progress', 'Review', 'Done'] as const;

/** First word of task names. */
export const TASK_VERBS = [
  'Draft',
  'Review',
  'Fix',
  'Plan',
  'Ship',
  'Test',
  'Design',
  'Update',
  'Migrate',
  'Document',
  'Research',
  'Prepare',
  'Benchmark',
  'Refactor',
  'Translate',
  'Audit',
] as const;

/** Rest of task names (some non-ASCII, for search tests). */
export const TASK_OBJECTS = [
  'release notes',
  'pricing page',
  'login flow',
  'gripper firmware',
  'onboarding email',
  'sprint board',
  'API docs',
  'battery telemetry',
  'hiring rubric',
  'customer survey',
  'launch checklist',
  'invoice export',
  'café menu',
  'Zürich office move',
  'naïve search ranking',
  'safety report',
  'CI pipeline',
  'warehouse map',
  'support macros',
  'quarterly OKRs',
] as const;

/** Task notes (empty ones included: most real tasks have none). */
export const NOTE_SENTENCES = [
  'See the spec in the shared drive.',
  'Blocked until legal signs off.',
  'Customer asked for this twice — prioritise.',
  'Pair with design before starting.',
  'Acceptance: all checks green on staging.',
  'Numbers are in the Q2 report (€ and $).',
  '',
] as const;

/** Tags of the premium organization; the first is the anchor tag. */
export const PREMIUM_TAGS = ['urgent', 'bug', 'customer', 'q3', 'blocked', 'design-review', 'tech-debt', 'quick-win'] as const;
/** Tags of the free workspace. */
export const FREE_TAGS = ['errand', 'home', 'reading'] as const;

/** ProjectResponse/TagResponse `color` values (spec enum, without `none`). */
export const COLORS = [
  'dark-pink',
  'dark-green',
  'dark-blue',
  'dark-red',
  'dark-teal',
  'dark-brown',
  'dark-orange',
  'dark-purple',
  'dark-warm-gray',
  'light-pink',
  'light-green',
  'light-blue',
  'light-red',
  'light-teal',
  'light-brown',
  'light-orange',
  'light-purple',
  'light-warm-gray',
] as const;

/** ProjectResponse `icon` values (a subset of the spec enum). */
export const ICONS = ['list', 'board', 'timeline', 'calendar', 'rocket', 'people', 'graph', 'star', 'bug', 'globe', 'gear'] as const;

/** File names and media types of seeded attachments. */
export const ATTACHMENT_FILES: ReadonlyArray<readonly [string, string]> = [
  ['spec.pdf', 'application/pdf'],
  ['screenshot.png', 'image/png'],
  ['photo.jpg', 'image/jpeg'],
  ['export.csv', 'text/csv'],
  ['notes.txt', 'text/plain'],
  ['budget.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['contract.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['demo.mp4', 'video/mp4'],
  ['config.json', 'application/json'],
  ['Präsentation.pdf', 'application/pdf'],
];
