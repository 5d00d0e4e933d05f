/**
 * Word lists the HubSpot seed draws from. Several first names repeat and many are non-ASCII, so
 * that search tests (EQ, CONTAINS_TOKEN, `query`) meet shared and unicode values.
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
  'Nguyễn',
  'Siobhán',
  'Dmitri',
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
  'Berners-Lee',
  'Núñez',
  'Müller',
  'Ødegård',
  'Østergaard',
  'Dubois',
  'Wiśniewski',
  'García',
  'Yamamoto',
  'Okafor',
  'Kowalski',
  'Smith',
  'Johnson',
  'Brown',
  'Martin',
  'Rossi',
  'Novák',
  'Popescu',
  'Ivanova',
  'Haddad',
  'Tanaka',
] as const;

export const COMPANY_FIRST = [
  'Northwind',
  'Contoso',
  'Globex',
  'Initech',
  'Umbrella',
  'Stark',
  'Wayne',
  'Acme',
  'Hooli',
  'Vandelay',
  'Müller',
  'Société',
  'Nordisk',
  'Øresund',
  'Café',
  'Zürich',
  'Blue',
  'Red',
  'Silver',
  'Golden',
] as const;

export const COMPANY_SECOND = [
  'Traders',
  'Industries',
  'Logistics',
  'Labs',
  'Systems',
  'Holdings',
  'Bau',
  'Générale',
  'Analytics',
  'Foods',
  'Robotics',
  'Textiles',
  'Energy',
  'Media',
  'Partners',
] as const;

export const INDUSTRIES = ['COMPUTER_SOFTWARE', 'RETAIL', 'FINANCIAL_SERVICES', 'HOSPITAL_HEALTH_CARE', 'CONSTRUCTION', 'MARKETING_AND_ADVERTISING'] as const;

export const CITIES: ReadonlyArray<readonly [string, string]> = [
  ['Boston', 'United States'],
  ['Dublin', 'Ireland'],
  ['Berlin', 'Germany'],
  ['São Paulo', 'Brazil'],
  ['Tokyo', 'Japan'],
  ['Kraków', 'Poland'],
  ['Malmö', 'Sweden'],
  ['Montréal', 'Canada'],
  ['Lagos', 'Nigeria'],
  ['Zürich', 'Switzerland'],
];

export const JOB_TITLES = ['Engineer', 'Head of Sales', 'CTO', 'Marketing Manager', 'Account Executive', 'Support Lead', 'Founder'] as const;

export const PRODUCTS = ['Platform', 'Analytics add-on', 'Support plan', 'Onboarding', 'Enterprise licence', 'Consulting'] as const;

export const TICKET_SUBJECTS = [
  'Cannot log in',
  'Invoice is wrong',
  'Export fails',
  'Feature request: dark mode',
  'Slow dashboard',
  'Password reset email missing',
  'Integration error',
  'Question about pricing',
] as const;

export const CAR_MODELS: ReadonlyArray<readonly [string, string]> = [
  ['Toyota', 'Corolla'],
  ['Volkswagen', 'Golf'],
  ['Škoda', 'Octavia'],
  ['Renault', 'Clio'],
  ['Ford', 'Mustang'],
  ['Tesla', 'Model 3'],
  ['Citroën', 'C4'],
  ['Volvo', 'XC60'],
  ['Honda', 'Civic'],
  ['Peugeot', '208'],
];

export const FREE_MAIL_DOMAINS = ['mail.example', 'inbox.example', 'post.example'] as const;

/**
 * Contacts seeded first, whatever the seed, so tests can name them. Two share the first name Ada;
 * several are non-ASCII.
 */
export const ANCHOR_CONTACTS: ReadonlyArray<{ firstname: string; lastname: string; email: string }> = [
  { firstname: 'Ada', lastname: 'Lovelace', email: 'ada.lovelace@example.com' },
  { firstname: 'José', lastname: 'Núñez', email: 'jose.nunez@example.com' },
  { firstname: 'Zoë', lastname: 'Ødegård', email: 'zoe.odegard@example.com' },
  { firstname: 'Ada', lastname: 'Müller', email: 'ada.mueller@example.com' },
  { firstname: '美咲', lastname: '佐藤', email: 'misaki.sato@example.com' },
  { firstname: 'Łukasz', lastname: 'Wiśniewski', email: 'lukasz.wisniewski@example.com' },
];
