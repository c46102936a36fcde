// The layers of ARCHITECTURE.md ("Layers"), checked by `npm run check:layers`, which `npm test` runs.
// A rule names what may not be imported; a violation names the file and the rule. Exceptions are
// written out here with their reason, and listed in ARCHITECTURE.md. Tests are wiring: they may
// build the app or reach any layer, so the layer rules look at the sources only (cycles everywhere).

const TESTS = '\\.test\\.tsx?$';
const DOMAIN = '^src/(platform|help-center|agent-studio)/';
/** The parsed environment: a leaf (it imports nothing else of src/), handed to every layer; config-dkim.ts is its DKIM part. */
const CONFIG = '^src/config(-dkim)?\\.ts$';
const TOP = '^src/(web-console|demo|cli)/|^src/(app|server|cli)\\.ts$';

/** Source files of the features and of channels/ and delivery/ that the repository rule looks at. */
const FEATURE_FILE = '^src/(platform|help-center|agent-studio|channels|delivery)/([^/]+)/';
const REPOSITORY_OR_TABLE = '^src/(platform|help-center|agent-studio|channels|delivery)/[^/]+/.+\\.(repository|table)\\.ts$';
const exactly = (file) => `^${file.replace(/[.]/g, '\\.')}$`;

/**
 * The exceptions to no-reach-into-another-feature-repository (listed in ARCHITECTURE.md): a file
 * that may import another feature's repository, because one statement joins both features' tables
 * or one transaction's row lock covers the write. Each names what it may reach, and why.
 */
const REPOSITORY_REACHES = [
  {
    // A ticket read brings its tags in the same statement (tagsOfEnclosingTicket, a subquery of
    // ticket_tags and team_tags): one round trip for every ticket read and page. A ticket read by
    // key brings its SLA targets likewise (targetStatesOfEnclosingTicket), and the read before a
    // reply whether the ticket has targets and had its first reply (firstReplyOfEnclosingTicket).
    from: 'src/platform/tickets/ticket.repository.ts',
    to: [
      'src/platform/ticket-tags/ticket-tag.repository.ts',
      'src/platform/ticket-sla/ticket-sla.repository.ts',
      'src/platform/reports/report-reply.repository.ts',
    ],
  },
  {
    // A page of comment threads joins each comment's email in the outbox (JOINED_OUTBOX_COLUMNS) in
    // the same statement, so the author sees its delivery without a second read.
    from: 'src/platform/tickets/comment.repository.ts',
    to: ['src/delivery/outbox/outbox.repository.ts'],
  },
  {
    // The emails of a ticket join their outbox rows (JOINED_OUTBOX_COLUMNS) in the same statement.
    from: 'src/platform/ticket-emails/ticket-email.repository.ts',
    to: ['src/delivery/outbox/outbox.repository.ts'],
  },
  {
    // The search's ranking statement scopes its documents by the ticket list's visibility and
    // filters (visibleTickets, as a subquery), then reads the hits' rows (findTicketsByIds).
    from: 'src/platform/ticket-search/ticket-search.service.ts',
    to: ['src/platform/tickets/ticket.repository.ts'],
  },
  {
    // A bulk change writes each ticket's columns (updateTicket) in its transaction, under the row
    // lock beginTicketChange took there, by the rules of its own kinds of change.
    from: 'src/platform/ticket-bulk/ticket-bulk.service.ts',
    to: ['src/platform/tickets/ticket.repository.ts'],
  },
  {
    // A merge closes the source ticket (updateTicket) in its transaction, under the row locks of
    // both tickets (beginTicketChange, in id order), with the comments it moves.
    from: 'src/platform/ticket-merges/ticket-merge.service.ts',
    to: ['src/platform/tickets/ticket.repository.ts'],
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Modules that import each other, directly or round a loop: move what both need (a presenter, a type) below both.',
      from: { path: '^(src|web/src|widget)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'config-is-a-leaf',
      severity: 'error',
      comment: 'config.ts is the schema of the environment; every layer may read its type, so it imports nothing of src/.',
      from: { path: CONFIG },
      to: { path: '^src/', pathNot: CONFIG },
    },
    {
      name: 'lib-is-the-bottom',
      severity: 'error',
      comment: 'lib/ holds pure helpers and errors; it imports only lib/ and shared/.',
      from: { path: '^src/lib/', pathNot: TESTS },
      to: { path: '^src/', pathNot: '^src/(lib|shared)/' },
    },
    {
      name: 'shared-imports-nothing-server-only',
      severity: 'error',
      comment: 'shared/ holds rules the server and the console both use: it imports only shared/, no Node module.',
      from: { path: '^src/shared/', pathNot: TESTS },
      to: { pathNot: '^src/shared/' },
    },
    {
      name: 'db-below-domain',
      severity: 'error',
      comment: 'db/ (connection, dialect, migrations, job queue) imports lib/ and shared/ only.',
      from: { path: '^src/db/', pathNot: [TESTS, '^src/db/database\\.ts$'] },
      to: { path: '^src/', pathNot: `^src/(lib|shared|db)/|${CONFIG}` },
    },
    {
      name: 'db-below-domain',
      severity: 'error',
      comment:
        'database.ts joins the tables of every feature into the DB type: type-only imports of *.table.ts, erased at build.',
      from: { path: '^src/db/database\\.ts$' },
      to: { path: '^src/', pathNot: '^src/(lib|shared|db)/|\\.table\\.ts$' },
    },
    {
      name: 'delivery-below-domain',
      severity: 'error',
      comment:
        'delivery/ (the outbox, SMTP, threading headers) is infrastructure the domain uses: it imports lib/, db/ and itself only.',
      from: { path: '^src/delivery/', pathNot: TESTS },
      to: { path: '^src/', pathNot: `^src/(lib|shared|db|delivery)/|${CONFIG}` },
    },
    {
      name: 'domain-below-channels',
      severity: 'error',
      comment: 'The domain areas never import a channel, the app or the CLI.',
      from: { path: DOMAIN, pathNot: TESTS },
      to: { path: `^src/channels/|${TOP}` },
    },
    {
      name: 'services-know-no-http',
      severity: 'error',
      comment:
        'Services, repositories and workers throw AppError and take a principal; only routes, plugins, envelopes and schemas import http/.',
      from: {
        path: `${DOMAIN}|^src/channels/`,
        pathNot: [
          TESTS,
          // Routes written with JSX (the help-center site's pages) are routes too.
          '\\.(routes|plugin|envelope|errors|pagination|schemas|filters|meta)\\.tsx?$',
          // The live streams' halves that write Server-Sent Events frames for their routes.
          '^src/platform/events/event-stream\\.hub\\.ts$',
          '^src/channels/messenger/messenger-live\\.hub\\.ts$',
          '^src/agent-studio/runtime/run-answer\\.ts$',
        ],
      },
      // TypeBox building blocks (shared-schemas.ts, the cursor schema) are schemas, not plumbing.
      to: { path: '^src/http/', pathNot: '^src/http/(shared-schemas|pagination)\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'channels-below-http',
      severity: 'error',
      comment: 'A channel calls the domain and delivery; it never imports the app or the CLI.',
      from: { path: '^src/channels/', pathNot: TESTS },
      to: { path: TOP },
    },
    {
      name: 'http-imports-no-feature',
      severity: 'error',
      comment: 'http/ is Fastify plumbing: lookups it needs (API keys, sessions) are passed in by app.ts.',
      from: { path: '^src/http/', pathNot: [TESTS, '^src/http/openapi\\.ts$'] },
      to: { path: `${DOMAIN}|^src/(channels|delivery|demo|web-console|cli)/|^src/(app|server|cli)\\.ts$` },
    },
    {
      name: 'no-reach-into-another-feature-repository',
      severity: 'error',
      comment:
        "A feature uses another through its service (or a narrow exported interface), never through that feature's repository or table. Where one transaction must span both, the import is listed in ARCHITECTURE.md and below.",
      from: { path: FEATURE_FILE, pathNot: [TESTS, ...REPOSITORY_REACHES.map((reach) => exactly(reach.from))] },
      to: { path: REPOSITORY_OR_TABLE, pathNot: ['^src/$1/$2/'], dependencyTypesNot: ['type-only'] },
    },
    ...REPOSITORY_REACHES.map((reach) => ({
      name: 'no-reach-into-another-feature-repository',
      severity: 'error',
      comment:
        'The same rule for a file with a listed exception (REPOSITORY_REACHES): it may also reach what the exception names.',
      from: { path: exactly(reach.from) },
      to: {
        path: REPOSITORY_OR_TABLE,
        pathNot: [`^${reach.from.split('/').slice(0, 3).join('/')}/`, ...reach.to.map(exactly)],
        dependencyTypesNot: ['type-only'],
      },
    })),
    {
      name: 'console-areas-stay-apart',
      severity: 'error',
      comment:
        "A console area (inbox/ and ticket/, the agent's screens; auth/; settings/<area>/, knowledge/, agents/, reports/) imports the shared pieces (ui/, api/, live/), the signed-in user (auth/session.ts) and src/shared/, never another area: what two areas need moves to ui/, api/ or live/. The shell and the router put areas together.",
      from: { path: '^web/src/(inbox|ticket|auth|knowledge|agents|reports|settings/[^/]+)/' },
      to: { path: '^web/src/', pathNot: ['^web/src/$1/', '^web/src/(ui|api|live)/', '^web/src/auth/session\\.ts$'] },
    },
    {
      name: 'console-shared-pieces-import-no-area',
      severity: 'error',
      comment: 'ui/, api/ and live/ serve every area of the console, so they import only each other (and src/shared/).',
      from: { path: '^web/src/(ui|api|live)/' },
      to: { path: '^web/src/', pathNot: '^web/src/(ui|api|live)/' },
    },
    {
      name: 'console-imports-only-console-and-shared',
      severity: 'error',
      comment: 'The console is a client of the public API: it imports web/src/ and src/shared/ only.',
      from: { path: '^web/src/' },
      to: { path: '^(src|test|bench|scripts)/', pathNot: '^src/shared/' },
    },
    {
      name: 'widget-imports-only-widget-and-shared',
      severity: 'error',
      comment:
        "The messenger (widget/) runs in visitors' browsers and talks to the server over HTTP only: it imports widget/ and src/shared/, never the server or the console.",
      from: { path: '^widget/' },
      to: { path: '^(src|web|test|bench|scripts)/', pathNot: '^src/shared/' },
    },
    {
      name: 'widget-halves-stay-apart',
      severity: 'error',
      comment:
        'The loader (on the host page) and the panel (in its iframe) are separate bundles that meet only through postMessage: each imports itself and widget/shared/ (the messages), never the other.',
      from: { path: '^widget/(loader|panel)/' },
      to: { path: '^widget/', pathNot: ['^widget/$1/', '^widget/shared/'] },
    },
    {
      name: 'widget-shared-is-a-leaf',
      severity: 'error',
      comment: 'widget/shared/ holds what both halves use (the messages, colours): it imports only itself and src/shared/.',
      from: { path: '^widget/shared/' },
      to: { pathNot: '^(widget|src)/shared/' },
    },
    {
      name: 'loader-has-no-framework',
      severity: 'error',
      comment: 'The loader is plain TypeScript under 10 kB gzipped on every page of the host: no package at all.',
      from: { path: '^widget/loader/' },
      to: { path: 'node_modules' },
    },
    {
      name: 'server-imports-no-widget',
      severity: 'error',
      comment: 'The server serves the messenger as built files (dist/widget/); neither it nor the console imports its sources.',
      from: { path: '^(src|web/src)/' },
      to: { path: '^widget/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|web/dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
