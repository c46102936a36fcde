/**
 * What `switchboard demo seed` writes: a fixed, made-up support desk (Lumen, a cloud printing
 * service), so every seeded organization looks the same and screenshots are reproducible. Every
 * address is under `.example`, a domain reserved for examples, so no seeded email reaches anyone.
 */

export const DEMO_ORGANIZATION_NAME = 'Demo';

/** The person who signs in to the demo: the new organization's admin, or a member added to an existing one. */
export const DEMO_SIGN_IN = { name: 'Ana Souza', email: 'ana@lumen-demo.example' };

export interface DemoAgent {
  key: string;
  name: string;
  email: string;
}

export const DEMO_AGENTS: readonly DemoAgent[] = [
  { key: 'ana', ...DEMO_SIGN_IN },
  { key: 'ben', name: 'Ben Okafor', email: 'ben@lumen-demo.example' },
  { key: 'chloe', name: 'Chloé Martin', email: 'chloe@lumen-demo.example' },
  { key: 'dev', name: 'Dev Patel', email: 'dev@lumen-demo.example' },
  { key: 'emma', name: 'Emma Lindqvist', email: 'emma@lumen-demo.example' },
];

export interface DemoTeam {
  key: string;
  name: string;
  identifier: string;
  description: string;
  isPrivate?: boolean;
  members: string[];
  tags: string[];
}

/** The first team's identifier marks an organization as seeded (see `demo-seed.ts`). */
export const DEMO_TEAMS: readonly DemoTeam[] = [
  {
    key: 'support',
    name: 'Support',
    identifier: 'SUP',
    description: 'Questions about printers, apps and accounts',
    members: ['ana', 'ben', 'chloe'],
    tags: ['login', 'printer', 'mobile-app', 'how-to', 'vip'],
  },
  {
    key: 'billing',
    name: 'Billing',
    identifier: 'BIL',
    description: 'Invoices, plans and refunds',
    members: ['ana', 'dev'],
    tags: ['refund', 'invoice', 'plan-change', 'vip'],
  },
  {
    key: 'engineering',
    name: 'Engineering escalations',
    identifier: 'ENG',
    description: 'Bugs confirmed by support, handled with engineering',
    isPrivate: true,
    members: ['ana', 'emma'],
    tags: ['bug', 'outage'],
  },
];

export interface DemoAccount {
  key: string;
  name: string;
  domain: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { key: 'northwind', name: 'Northwind Traders', domain: 'northwind.example' },
  { key: 'globex', name: 'Globex Corporation', domain: 'globex.example' },
  { key: 'initech', name: 'Initech', domain: 'initech.example' },
  { key: 'umbrella', name: 'Umbrella Health', domain: 'umbrella-health.example' },
];

export interface DemoContact {
  key: string;
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  account?: string;
}

export const DEMO_CONTACTS: readonly DemoContact[] = [
  {
    key: 'priya',
    firstName: 'Priya',
    lastName: 'Raman',
    email: 'priya@northwind.example',
    phone: '+1 415 555 0101',
    account: 'northwind',
  },
  { key: 'tom', firstName: 'Tom', lastName: 'Becker', email: 'tom@northwind.example', account: 'northwind' },
  {
    key: 'hana',
    firstName: 'Hana',
    lastName: 'Kobayashi',
    email: 'hana@globex.example',
    phone: '+81 3 5555 0199',
    account: 'globex',
  },
  { key: 'marcus', firstName: 'Marcus', lastName: 'Hill', email: 'marcus@initech.example', account: 'initech' },
  { key: 'sofia', firstName: 'Sofia', lastName: 'Greco', email: 'sofia@umbrella-health.example', account: 'umbrella' },
  { key: 'liam', firstName: 'Liam', lastName: "O'Brien", email: 'liam@umbrella-health.example', account: 'umbrella' },
  { key: 'noor', firstName: 'Noor', lastName: 'Haddad', email: 'noor.haddad@mail.example' },
  { key: 'jonas', firstName: 'Jonas', lastName: 'Weber', email: 'jonas.weber@mail.example' },
];

/** One message of a ticket's conversation: the customer (public), an agent's reply (public) or an agent's internal note. */
export type DemoMessage =
  | { from: 'customer'; text: string }
  | { from: 'agent'; agent: string; text: string }
  | { from: 'note'; agent: string; text: string }
  | { from: 'ai_note'; text: string };

export interface DemoTicket {
  title: string;
  team: string;
  requestor: string;
  description: string;
  priority: 'Low' | 'Medium' | 'High' | 'Urgent';
  /** Where it ends up, after its conversation. */
  status: 'Open' | 'In progress' | 'On hold' | 'Closed';
  assignee?: string;
  tags?: string[];
  messages?: DemoMessage[];
}

export const DEMO_TICKETS: readonly DemoTicket[] = [
  {
    title: 'Cannot sign in after password reset',
    team: 'support',
    requestor: 'priya',
    description: 'I reset my password this morning and now the app says "invalid credentials" every time.',
    priority: 'High',
    status: 'In progress',
    assignee: 'ana',
    tags: ['login', 'vip'],
    messages: [
      {
        from: 'agent',
        agent: 'ana',
        text: 'Hi Priya, sorry about that. Could you tell me whether you sign in with email or with Google?',
      },
      { from: 'customer', text: 'With email. I also tried on my phone, same error.' },
      {
        from: 'note',
        agent: 'ana',
        text: 'Her account shows two reset emails within a minute: the first link was probably used. Checking the auth logs.',
      },
    ],
  },
  {
    title: 'Printer shows offline in the dashboard',
    team: 'support',
    requestor: 'tom',
    description: 'Our office printer (LX-420) appears offline although it prints fine from USB.',
    priority: 'Medium',
    status: 'Open',
    assignee: 'ben',
    tags: ['printer'],
    messages: [
      {
        from: 'ai_note',
        text: 'Suggested reply: the LX-420 needs firmware 3.2 or later to report its status; see "Connecting a printer to Lumen".',
      },
    ],
  },
  {
    title: 'How do I add a second office location?',
    team: 'support',
    requestor: 'hana',
    description: 'We are opening a new office in Osaka. Can one account manage printers in both places?',
    priority: 'Low',
    status: 'Closed',
    assignee: 'chloe',
    tags: ['how-to'],
    messages: [
      {
        from: 'agent',
        agent: 'chloe',
        text: 'Yes! Go to Settings → Locations → Add location. Each location gets its own printers and users.',
      },
      { from: 'customer', text: 'Found it, thank you!' },
    ],
  },
  {
    title: 'Refund for duplicate charge in March',
    team: 'billing',
    requestor: 'marcus',
    description: 'We were charged twice for the March invoice (INV-2291). Please refund one of them.',
    priority: 'High',
    status: 'In progress',
    assignee: 'dev',
    tags: ['refund', 'invoice'],
    messages: [
      {
        from: 'note',
        agent: 'dev',
        text: 'Confirmed in the payment provider: two captures 4 seconds apart. Refund of the second one started.',
      },
      {
        from: 'agent',
        agent: 'dev',
        text: 'Hi Marcus, you are right, and I have refunded the duplicate charge. It shows on your card within 5 business days.',
      },
    ],
  },
  {
    title: 'Mobile app crashes when scanning a QR code',
    team: 'engineering',
    requestor: 'sofia',
    description: 'The Android app closes as soon as I point the camera at the QR code on the printer.',
    priority: 'Urgent',
    status: 'In progress',
    assignee: 'emma',
    tags: ['bug'],
    messages: [
      {
        from: 'note',
        agent: 'emma',
        text: 'Reproduced on Android 14 with app 5.8.1. Crash in the camera permission flow; fix is in review.',
      },
      { from: 'customer', text: 'Any update? Half of our staff uses Android.' },
      {
        from: 'agent',
        agent: 'emma',
        text: 'We found the cause and the fix ships in version 5.8.2 this week. Until then, scanning from the web app works.',
      },
    ],
  },
  {
    title: 'Upgrade from Team to Business plan',
    team: 'billing',
    requestor: 'priya',
    description: 'We would like to upgrade to Business before our renewal. Will the price be prorated?',
    priority: 'Medium',
    status: 'Open',
    tags: ['plan-change', 'vip'],
  },
  {
    title: 'Scans arrive blank in email',
    team: 'support',
    requestor: 'liam',
    description: 'Scan-to-email sends a PDF, but every page is white.',
    priority: 'High',
    status: 'On hold',
    assignee: 'ben',
    tags: ['printer'],
    messages: [
      {
        from: 'agent',
        agent: 'ben',
        text: 'Could you send us a photo of the scanner glass and the settings page of the printer?',
      },
      { from: 'note', agent: 'ben', text: 'Waiting for the customer. Likely the "remove background" option set to maximum.' },
    ],
  },
  {
    title: 'Invoice needs our VAT number',
    team: 'billing',
    requestor: 'hana',
    description: 'Please add our VAT number JP-1234567 to the last three invoices.',
    priority: 'Low',
    status: 'Closed',
    assignee: 'dev',
    tags: ['invoice'],
    messages: [
      {
        from: 'agent',
        agent: 'dev',
        text: 'Done: the three invoices now show your VAT number. You can download them from Billing → Invoices.',
      },
    ],
  },
  {
    title: 'Print jobs stuck in queue since this morning',
    team: 'engineering',
    requestor: 'tom',
    description: 'Nothing prints since 8am. The queue shows 40 jobs waiting.',
    priority: 'Urgent',
    status: 'Closed',
    assignee: 'emma',
    tags: ['outage'],
    messages: [
      { from: 'note', agent: 'emma', text: 'Queue workers in eu-west stopped after the 7:50 deploy. Rolled back at 9:12.' },
      {
        from: 'agent',
        agent: 'emma',
        text: 'The queue is moving again and your jobs printed. Sorry for the disruption this morning.',
      },
      { from: 'customer', text: 'Confirmed, everything printed. Thanks for the quick fix.' },
    ],
  },
  {
    title: 'Two-factor codes not arriving by SMS',
    team: 'support',
    requestor: 'noor',
    description: 'I never receive the SMS code when I sign in from a new laptop.',
    priority: 'Medium',
    status: 'Open',
    tags: ['login'],
  },
  {
    title: 'Can guests print without an account?',
    team: 'support',
    requestor: 'jonas',
    description: 'Visitors at our front desk want to print boarding passes. Do they need an account?',
    priority: 'Low',
    status: 'Open',
    assignee: 'chloe',
    tags: ['how-to'],
    messages: [
      {
        from: 'ai_note',
        text: 'Suggested reply: guest printing by email is covered in "Guest printing by email"; it needs the Business plan.',
      },
    ],
  },
  {
    title: 'Cancel our subscription at renewal',
    team: 'billing',
    requestor: 'liam',
    description: 'We are moving to another provider. Please cancel at the end of the current term.',
    priority: 'Medium',
    status: 'On hold',
    assignee: 'ana',
    tags: ['plan-change'],
    messages: [
      {
        from: 'agent',
        agent: 'ana',
        text: 'Sorry to see you go, Liam. Before I cancel: would a call with our team about the issues you had help?',
      },
      {
        from: 'note',
        agent: 'ana',
        text: 'Umbrella Health had three printer tickets last quarter. Offered a call with customer success.',
      },
    ],
  },
  {
    title: 'Wrong paper size on every page',
    team: 'support',
    requestor: 'marcus',
    description: 'Documents print on A4 although our printers are set to Letter.',
    priority: 'Medium',
    status: 'In progress',
    assignee: 'ana',
    tags: ['printer'],
    messages: [{ from: 'customer', text: 'This happens only with documents printed from the web app.' }],
  },
  {
    title: 'Admin rights for a new IT manager',
    team: 'support',
    requestor: 'sofia',
    description: 'Our new IT manager, Ines, needs admin rights on our Lumen account.',
    priority: 'Low',
    status: 'Closed',
    assignee: 'ben',
    messages: [
      {
        from: 'agent',
        agent: 'ben',
        text: 'An account owner has to grant it: Settings → Users → Ines → Role: Admin. I sent the owner the steps.',
      },
    ],
  },
  {
    title: 'Receipt printer drops the last line',
    team: 'engineering',
    requestor: 'jonas',
    description: 'Our RX-80 receipt printer cuts the paper before the last line of every receipt.',
    priority: 'High',
    status: 'Open',
    tags: ['bug'],
  },
  {
    title: 'Annual invoice in euros instead of dollars',
    team: 'billing',
    requestor: 'noor',
    description: 'Can our next annual invoice be issued in EUR?',
    priority: 'Low',
    status: 'Open',
    tags: ['invoice'],
  },
];

export interface DemoArticle {
  title: string;
  description: string;
  markdown: string;
  /** A draft stays unpublished: the help center and the AI agent never show it. */
  draft?: boolean;
}

export interface DemoCollection {
  name: string;
  description: string;
  icon: string;
  articles: DemoArticle[];
}

export const DEMO_HELP_CENTER = { name: 'Lumen Help Center' };

export const DEMO_COLLECTIONS: readonly DemoCollection[] = [
  {
    name: 'Getting started',
    description: 'Set up Lumen for your office',
    icon: 'rocket',
    articles: [
      {
        title: 'Connecting a printer to Lumen',
        description: 'Add a printer in three steps',
        markdown:
          'Lumen works with any printer on your network.\n\n1. Open **Settings → Printers** and choose **Add printer**.\n2. Pick the printer from the list, or type its address.\n3. Print the test page.\n\nThe LX-420 needs firmware **3.2 or later** to report whether it is online.',
      },
      {
        title: 'Managing several office locations',
        description: 'One account, many offices',
        markdown:
          'Each location has its own printers and users. Go to **Settings → Locations → Add location**, then move printers into it. Admins see every location; members see their own.',
      },
      {
        title: 'Guest printing by email',
        description: 'Let visitors print without an account',
        markdown:
          'On the **Business** plan, every location gets a guest address such as `frontdesk@print.lumen.example`. Visitors email their document there and pick it up at the printer with a one-time code.',
      },
    ],
  },
  {
    name: 'Account and sign-in',
    description: 'Passwords, two-factor authentication and roles',
    icon: 'key',
    articles: [
      {
        title: 'Resetting your password',
        description: 'When you cannot sign in',
        markdown:
          'Choose **Forgot password** on the sign-in page. The link in the email works once, for one hour; asking again replaces it, so always use the newest email.',
      },
      {
        title: 'Two-factor authentication',
        description: 'Codes by app or SMS',
        markdown:
          'We recommend an authenticator app. SMS codes can take a few minutes with some carriers; if none arrives after five minutes, use a backup code.',
      },
      {
        title: 'Single sign-on with your identity provider',
        description: 'SAML setup (coming soon)',
        markdown: 'This guide is being written.',
        draft: true,
      },
    ],
  },
  {
    name: 'Billing',
    description: 'Plans, invoices and refunds',
    icon: 'credit-card',
    articles: [
      {
        title: 'Refund policy',
        description: 'When and how we refund',
        markdown:
          'We refund duplicate charges in full, at once. Annual plans cancelled within **30 days** of renewal are refunded pro rata. Refunds reach your card within 5 business days.',
      },
      {
        title: 'Changing your plan',
        description: 'Upgrades and downgrades',
        markdown:
          'Upgrades take effect at once and are prorated to the day. Downgrades take effect at the next renewal. Change plans in **Billing → Plan**.',
      },
      {
        title: 'Invoices, VAT and currencies',
        description: 'What your invoices show',
        markdown:
          'Add your VAT number in **Billing → Details**; it appears on every later invoice, and support can reissue earlier ones. Invoices are in USD or EUR, chosen per account.',
      },
    ],
  },
];

export const DEMO_AI_AGENT = {
  name: 'Lumen Assistant',
  description: 'Answers customers from the help center and hands off to the team when unsure.',
  tools: [
    'search_knowledge_base',
    'get_ticket',
    'search_tickets',
    'lookup_contact',
    'add_internal_note',
    'reply_to_customer',
    'handoff_to_human',
  ],
};
