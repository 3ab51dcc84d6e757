/**
 * Deterministic, realistic-looking CRM data for the benchmark: the same `--rows` always gives
 * the same companies and people (ids included), on any machine.
 */

import { seededRandom as prng } from '../../test/support/seeded-random';

export type Rand = () => number;

export const pick = <T>(rand: Rand, list: readonly T[]): T => list[Math.floor(rand() * list.length)];
export const int = (rand: Rand, min: number, max: number): number => min + Math.floor(rand() * (max - min + 1));

/** A version-4 UUID drawn from the PRNG. */
export function uuid(rand: Rand): string {
  const hex: string[] = [];
  for (let i = 0; i < 16; i++)
    hex.push(
      Math.floor(rand() * 256)
        .toString(16)
        .padStart(2, '0'),
    );
  hex[6] = `4${hex[6][1]}`;
  hex[8] = ((parseInt(hex[8], 16) & 0x3f) | 0x80).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const FIRST_NAMES = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Charles',
  'Karen',
  'Daniel',
  'Lisa',
  'Matthew',
  'Nancy',
  'Anthony',
  'Sandra',
  'Mark',
  'Ashley',
  'Paul',
  'Emily',
  'Steven',
  'Donna',
  'Andrew',
  'Michelle',
  'Joshua',
  'Carol',
  'Kevin',
  'Amanda',
  'Brian',
  'Melissa',
  'George',
  'Deborah',
  'Timothy',
  'Stephanie',
  'Ronald',
  'Rebecca',
  'Jason',
  'Laura',
  'Edward',
  'Sharon',
  'Jeffrey',
  'Cynthia',
  'Ryan',
  'Kathleen',
  'Jacob',
  'Amy',
  'Gary',
  'Angela',
  'Nicholas',
  'Anna',
  'Eric',
  'Brenda',
  'Jonathan',
  'Emma',
  'Stephen',
  'Olivia',
  'Larry',
  'Pamela',
  'Justin',
  'Nicole',
  'Camille',
  'Louis',
  'Chloe',
  'Hugo',
  'Lea',
  'Lucas',
  'Manon',
  'Jules',
  'Ines',
  'Arthur',
  'Sofia',
  'Mateo',
  'Lucia',
  'Leon',
  'Mia',
  'Felix',
  'Hannah',
  'Noah',
  'Ada',
  'Alan',
  'Grace',
  'Yuki',
  'Hiro',
  'Priya',
  'Arjun',
  'Wei',
  'Mei',
  'Omar',
  'Fatima',
  'Kofi',
  'Amara',
] as const;

export const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Dubois',
  'Lefebvre',
  'Moreau',
  'Laurent',
  'Simon',
  'Michel',
  'Garnier',
  'Faure',
  'Rousseau',
  'Blanc',
  'Muller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Rossi',
  'Russo',
  'Ferrari',
  'Esposito',
  'Bianchi',
  'Romano',
  'Colombo',
  'Ricci',
  'Marino',
  'Greco',
  'Tanaka',
  'Suzuki',
  'Sato',
  'Watanabe',
  'Ito',
  'Patel',
  'Shah',
  'Singh',
  'Kumar',
  'Gupta',
  'Chen',
  'Wang',
  'Li',
  'Zhang',
  'Liu',
  'Kowalski',
  'Nowak',
  'Jensen',
  'Hansen',
  'Larsen',
] as const;

export const NAME_PREFIXES = [
  'Northwind',
  'Blue Harbor',
  'Silverline',
  'Acme',
  'Brightpath',
  'Redwood',
  'Ironclad',
  'Evergreen',
  'Summit',
  'Crescent',
  'Pioneer',
  'Atlas',
  'Vertex',
  'Quantum',
  'Nimbus',
  'Horizon',
  'Granite',
  'Lumen',
  'Cobalt',
  'Orchid',
  'Falcon',
  'Meridian',
  'Sterling',
  'Harbor',
  'Aurora',
  'Keystone',
  'Beacon',
  'Cascade',
  'Polar',
  'Zenith',
  'Maple',
  'Juniper',
  'Saffron',
  'Onyx',
  'Tidal',
  'Copper',
  'Willow',
  'Echo',
  'Nova',
  'Helix',
] as const;
export const NAME_NOUNS = [
  'Analytics',
  'Systems',
  'Logistics',
  'Foods',
  'Health',
  'Robotics',
  'Software',
  'Energy',
  'Capital',
  'Labs',
  'Media',
  'Partners',
  'Networks',
  'Dynamics',
  'Ventures',
  'Consulting',
  'Biotech',
  'Motors',
  'Studios',
  'Security',
  'Cloud',
  'Retail',
  'Textiles',
  'Aerospace',
  'Pharma',
  'Insurance',
  'Travel',
  'Education',
  'Games',
  'Payments',
] as const;
const NAME_SUFFIXES = ['', '', '', 'Inc', 'Ltd', 'GmbH', 'SAS', 'Group', 'Co', 'LLC'] as const;
const TLDS = ['com', 'com', 'com', 'io', 'co', 'fr', 'de', 'co.uk', 'net', 'ai'] as const;

/** City, country code, calling code, approximate coordinates; the first ones are the most frequent. */
export const CITIES = [
  ['Paris', 'FR', '+33', 48.8566, 2.3522],
  ['London', 'GB', '+44', 51.5072, -0.1276],
  ['New York', 'US', '+1', 40.7128, -74.006],
  ['Berlin', 'DE', '+49', 52.52, 13.405],
  ['San Francisco', 'US', '+1', 37.7749, -122.4194],
  ['Lyon', 'FR', '+33', 45.764, 4.8357],
  ['Madrid', 'ES', '+34', 40.4168, -3.7038],
  ['Amsterdam', 'NL', '+31', 52.3676, 4.9041],
  ['Toronto', 'CA', '+1', 43.6532, -79.3832],
  ['Munich', 'DE', '+49', 48.1351, 11.582],
  ['Milan', 'IT', '+39', 45.4642, 9.19],
  ['Tokyo', 'JP', '+81', 35.6762, 139.6503],
  ['Singapore', 'SG', '+65', 1.3521, 103.8198],
  ['Sydney', 'AU', '+61', -33.8688, 151.2093],
  ['Austin', 'US', '+1', 30.2672, -97.7431],
  ['Boston', 'US', '+1', 42.3601, -71.0589],
  ['Chicago', 'US', '+1', 41.8781, -87.6298],
  ['Dublin', 'IE', '+353', 53.3498, -6.2603],
  ['Stockholm', 'SE', '+46', 59.3293, 18.0686],
  ['Lisbon', 'PT', '+351', 38.7223, -9.1393],
  ['Barcelona', 'ES', '+34', 41.3874, 2.1686],
  ['Bangalore', 'IN', '+91', 12.9716, 77.5946],
  ['Seoul', 'KR', '+82', 37.5665, 126.978],
  ['Zurich', 'CH', '+41', 47.3769, 8.5417],
  ['Warsaw', 'PL', '+48', 52.2297, 21.0122],
  ['Copenhagen', 'DK', '+45', 55.6761, 12.5683],
  ['Bordeaux', 'FR', '+33', 44.8378, -0.5792],
  ['Hamburg', 'DE', '+49', 53.5511, 9.9937],
  ['Seattle', 'US', '+1', 47.6062, -122.3321],
  ['Montreal', 'CA', '+1', 45.5019, -73.5674],
] as const;

const STREETS = [
  'Main Street',
  'Rue de Rivoli',
  'High Street',
  'Market Street',
  'Hauptstrasse',
  'Oak Avenue',
  'Elm Street',
  'Park Lane',
  'Avenue Foch',
  'Broadway',
  'King Street',
  'Via Roma',
] as const;

export const JOB_TITLES = [
  'CEO',
  'CTO',
  'CFO',
  'COO',
  'VP Sales',
  'VP Engineering',
  'Head of Marketing',
  'Account Executive',
  'Sales Development Representative',
  'Software Engineer',
  'Senior Software Engineer',
  'Product Manager',
  'Product Designer',
  'Data Analyst',
  'Data Scientist',
  'Customer Success Manager',
  'Operations Manager',
  'Office Manager',
  'Recruiter',
  'HR Business Partner',
  'Financial Analyst',
  'Procurement Lead',
  'Legal Counsel',
  'Marketing Manager',
  'Solutions Architect',
  'Support Engineer',
  'Engineering Manager',
  'Founder',
  'Consultant',
  '',
] as const;

/** Skewed pick: the first items of `list` come up more often (cities, as in real CRMs). */
function skewed<T>(rand: Rand, list: readonly T[]): T {
  const r = rand();
  return list[Math.floor(r * r * list.length)];
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** 2023-01-01 .. 2026-01-01: the span of createdAt. */
const EPOCH = Date.UTC(2026, 0, 1);
const SPAN_MS = 3 * 365 * 86_400_000;

export interface CompanyRow {
  id: string;
  createdAt: string;
  name: string;
  domain: string;
  employees: number | null;
  linkedin: string;
  xLink: string;
  arrMicros: string | null;
  arrCurrency: string;
  street1: string;
  city: string;
  postcode: string;
  country: string;
  lat: number;
  lng: number;
  icp: boolean;
  position: number;
}

export interface PersonRow {
  id: string;
  createdAt: string;
  firstName: string;
  lastName: string;
  email: string;
  linkedin: string;
  jobTitle: string;
  phoneNumber: string;
  phoneCountry: string;
  phoneCalling: string;
  city: string;
  position: number;
  companyIndex: number | null;
}

/** Company `i` (0-based) of the data set: the same i always gives the same row. */
export function company(i: number): CompanyRow {
  const rand = prng(0xc0ffee ^ Math.imul(i + 1, 2654435761));
  const id = uuid(rand);
  const base = `${pick(rand, NAME_PREFIXES)} ${pick(rand, NAME_NOUNS)}`;
  const suffix = pick(rand, NAME_SUFFIXES);
  const name = suffix ? `${base} ${suffix}` : base;
  const tag = i.toString(36);
  const host = `${slug(base)}-${tag}.${pick(rand, TLDS)}`;
  // employees: log-uniform 1..20,000 (most companies are small), 5 % unknown
  const employees = rand() < 0.05 ? null : Math.max(1, Math.round(Math.exp(rand() * Math.log(20_000))));
  const [city, country, , lat, lng] = skewed(rand, CITIES);
  const hasArr = rand() < 0.6;
  return {
    id,
    createdAt: new Date(EPOCH - Math.floor(rand() * SPAN_MS)).toISOString(),
    name,
    domain: `https://${host}`,
    employees,
    linkedin: `https://www.linkedin.com/company/${slug(base)}-${tag}`,
    xLink: rand() < 0.3 ? `https://x.com/${slug(base).replace(/-/g, '')}${tag}` : '',
    arrMicros: hasArr ? String((employees ?? 10) * int(rand, 50, 250) * 1_000 * 1_000_000) : null,
    arrCurrency: hasArr ? pick(rand, ['USD', 'USD', 'EUR', 'GBP'] as const) : '',
    street1: `${int(rand, 1, 250)} ${pick(rand, STREETS)}`,
    city,
    postcode: String(int(rand, 10000, 99999)),
    country,
    lat: Math.round((lat + (rand() - 0.5) * 0.2) * 1e6) / 1e6,
    lng: Math.round((lng + (rand() - 0.5) * 0.2) * 1e6) / 1e6,
    icp: rand() < 0.1,
    position: i,
  };
}

/** Person `j` (0-based), linked to a company among `companies` (3 % have none). */
export function person(j: number, companies: number): PersonRow {
  const rand = prng(0xbeef ^ Math.imul(j + 1, 2246822519));
  const id = uuid(rand);
  const firstName = pick(rand, FIRST_NAMES);
  const lastName = pick(rand, LAST_NAMES);
  const companyIndex = rand() < 0.03 ? null : Math.floor(rand() * companies);
  const [city, phoneCountry, phoneCalling] = skewed(rand, CITIES);
  const tag = j.toString(36);
  return {
    id,
    createdAt: new Date(EPOCH - Math.floor(rand() * SPAN_MS)).toISOString(),
    firstName,
    lastName,
    email: `${slug(firstName)}.${slug(lastName)}.${tag}@${pick(rand, ['gmail.com', 'outlook.com', 'proton.me', 'example.com', 'yahoo.com'] as const)}`,
    linkedin: rand() < 0.7 ? `https://www.linkedin.com/in/${slug(firstName)}-${slug(lastName)}-${tag}` : '',
    jobTitle: pick(rand, JOB_TITLES),
    phoneNumber: String(int(rand, 100_000_000, 999_999_999)),
    phoneCountry,
    phoneCalling,
    city,
    position: j,
    companyIndex,
  };
}

/** The stage options of opportunities (collections.json), and how often each comes up. */
export const OPPORTUNITY_STAGES = ['NEW', 'SCREENING', 'MEETING', 'PROPOSAL', 'CUSTOMER'] as const;
const STAGE_WEIGHTS = [0.3, 0.25, 0.2, 0.15, 0.1];
const DEALS = [
  'Renewal',
  'Expansion',
  'Pilot',
  'Enterprise Plan',
  'Annual License',
  'Upsell',
  'Onboarding',
  'Migration',
  'Support Contract',
  'Platform Deal',
  'Team Plan',
  'Consulting Package',
] as const;

export interface OpportunityRow {
  id: string;
  createdAt: string;
  name: string;
  amountMicros: string | null;
  currency: string;
  closeDate: string | null;
  stage: (typeof OPPORTUNITY_STAGES)[number];
  position: number;
  companyIndex: number | null;
  pointOfContactIndex: number | null;
}

/**
 * Opportunity `k` (0-based): linked to a company among `companies` (5 % have none) and to a
 * person among `people` as point of contact (10 % have none), named after its company and a
 * kind of deal, a stage drawn from the options (30 % NEW down to 10 % CUSTOMER), an amount
 * (log-uniform 1,000..500,000 in USD, EUR or GBP; 8 % without) and a close date (10 % without).
 */
export function opportunity(k: number, companies: number, people: number): OpportunityRow {
  const rand = prng(0x0bb0 ^ Math.imul(k + 1, 3266489917));
  const id = uuid(rand);
  const companyIndex = rand() < 0.05 ? null : Math.floor(rand() * companies);
  const pointOfContactIndex = rand() < 0.1 ? null : Math.floor(rand() * people);
  const deal = pick(rand, DEALS);
  const createdAtMs = EPOCH - Math.floor(rand() * SPAN_MS);
  let r = rand();
  let stage: OpportunityRow['stage'] = OPPORTUNITY_STAGES[OPPORTUNITY_STAGES.length - 1];
  for (let s = 0; s < STAGE_WEIGHTS.length; s++) {
    if (r < STAGE_WEIGHTS[s]) {
      stage = OPPORTUNITY_STAGES[s];
      break;
    }
    r -= STAGE_WEIGHTS[s];
  }
  const hasAmount = rand() >= 0.08;
  const units = Math.round(Math.exp(Math.log(1_000) + rand() * Math.log(500)));
  const currency = pick(rand, ['USD', 'USD', 'EUR', 'GBP'] as const);
  const closeDate = rand() < 0.1 ? null : new Date(createdAtMs + Math.floor(rand() * 180 * 86_400_000)).toISOString();
  return {
    id,
    createdAt: new Date(createdAtMs).toISOString(),
    name: companyIndex === null ? deal : `${company(companyIndex).name} ${deal}`,
    amountMicros: hasAmount ? String(units * 1_000_000) : null,
    currency: hasAmount ? currency : '',
    closeDate,
    stage,
    position: k,
    companyIndex,
    pointOfContactIndex,
  };
}
