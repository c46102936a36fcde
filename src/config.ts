import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { checkDkim } from './config-dkim.js';

export { dkimSigningOf } from './config-dkim.js';

const DNS_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** A host name of two labels or more (`acme.test`, `mail.example.com`). */
const DOMAIN_NAME = `^(?=.{1,253}$)(?:${DNS_LABEL}\\.)+${DNS_LABEL}$`;
/** One label or more (`switchboard`, `s2026.eu`). */
const DKIM_SELECTOR_PATTERN = `^(?=.{1,63}$)${DNS_LABEL}(?:\\.${DNS_LABEL})*$`;

const Port = (description: string) => Type.Integer({ minimum: 0, maximum: 65535, description });

/**
 * Every setting Switchboard reads from its environment. The one place that knows variable names,
 * defaults and ranges; `server.ts` and the CLI parse it once and pass the result in.
 */
export const ConfigSchema = Type.Object({
  PORT: Port('Port shared by every API area that has no port of its own'),
  HOST: Type.String({ minLength: 1, description: 'Interface to listen on' }),
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://',
      description: 'A postgres:// URL selects PostgreSQL; unset means the embedded SQLite file',
    }),
  ),
  DATA_DIR: Type.String({ minLength: 1, description: 'Folder of the SQLite database file' }),
  DATABASE_POOL_MAX: Type.Integer({ minimum: 1, maximum: 1000, description: 'PostgreSQL pool size' }),
  PUBLIC_BASE_URL: Type.Optional(
    Type.String({ pattern: '^https?://[^\\s]+$', description: 'Address users reach the service at' }),
  ),
  LOG_LEVEL: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level))),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1, description: 'Largest request body accepted' }),
  API_KEY_CACHE_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 300,
    description: 'How long a verified key is trusted before the database is asked again',
  }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, description: 'Grace period for in-flight requests' }),
  ATTACHMENT_STORAGE: Type.Optional(
    Type.Union([Type.Literal('disk'), Type.Literal('database')], {
      description: 'Where uploaded files are kept: database (PostgreSQL only; the default with DATABASE_URL) or disk',
    }),
  ),
  ATTACHMENTS_DIR: Type.Optional(
    Type.String({ minLength: 1, description: 'Folder of uploaded files kept on disk (default DATA_DIR/attachments)' }),
  ),
  ATTACHMENT_MAX_BYTES: Type.Integer({ minimum: 1, description: 'Largest file accepted by POST /v1/attachments' }),
  SMTP_URL: Type.Optional(
    Type.String({ pattern: '^smtps?://', description: 'Outgoing mail server, e.g. smtp://user:pass@host:587' }),
  ),
  SMTP_FROM: Type.String({ minLength: 3, description: 'From address of outgoing email' }),
  DKIM_DOMAIN: Type.Optional(
    Type.String({
      pattern: DOMAIN_NAME,
      description: 'Domain signing outgoing email with DKIM (d=); with DKIM_SELECTOR and DKIM_PRIVATE_KEY, or none of them',
    }),
  ),
  DKIM_SELECTOR: Type.Optional(
    Type.String({
      pattern: DKIM_SELECTOR_PATTERN,
      description: 'DKIM selector (s=): the public key is the TXT record <selector>._domainkey.<DKIM_DOMAIN>',
    }),
  ),
  DKIM_PRIVATE_KEY: Type.Optional(
    Type.String({ description: 'PEM RSA private key signing outgoing email (line breaks as they are, or written \\n)' }),
  ),
  OUTBOX_POLL_MS: Type.Integer({ minimum: 10, description: 'How often the email worker looks for due messages' }),
  WEBHOOK_POLL_MS: Type.Integer({
    minimum: 10,
    description: 'How often the webhook worker looks for new events and due deliveries',
  }),
  TICKET_AGENT_POLL_MS: Type.Integer({
    minimum: 10,
    description: "How often the ticket-agent worker looks for new tickets and customer replies that a team's agent answers",
  }),
  SMTP_INBOUND_PORT: Type.Optional(
    Port('Port of the built-in SMTP receiver taking mail for the mailboxes (e.g. 2525 behind a relay, 25 as the MX); unset: off'),
  ),
  SMTP_INBOUND_HOST: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Interface the SMTP receiver listens on (default HOST; 0.0.0.0 to take mail from the internet)',
    }),
  ),
  SMTP_INBOUND_TLS_CERT: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'PEM certificate (chain) file the SMTP receiver offers with STARTTLS; with SMTP_INBOUND_TLS_KEY',
    }),
  ),
  SMTP_INBOUND_TLS_KEY: Type.Optional(
    Type.String({ minLength: 1, description: 'PEM private key file of SMTP_INBOUND_TLS_CERT' }),
  ),
  INBOUND_MAX_PER_SENDER_PER_HOUR: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    description: 'Messages one sender address may send an organization per hour before the rest are stored as rate_limited',
  }),
  IMAP_POLL_MS: Type.Integer({ minimum: 100, description: 'How often each IMAP mailbox is polled for new messages' }),
  INBOUND_MAX_BYTES: Type.Integer({
    minimum: 1024,
    description:
      'Largest email received: the SMTP receiver refuses a bigger one with 552 as soon as it passes the limit, the IMAP poller keeps only its envelope',
  }),
  EMAIL_RETENTION_DAYS: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 36500,
      description:
        'Days after which the original (.eml) of an email of a closed ticket is deleted by a background job (its headers and the comment stay); unset: kept',
    }),
  ),
  MAILBOX_DNS_SERVERS: Type.Optional(
    Type.String({
      pattern: '^[0-9A-Fa-f.:\\[\\]]+(,\\s*[0-9A-Fa-f.:\\[\\]]+)*$',
      description:
        "Comma-separated resolvers (ip or ip:port, [ipv6]:port) asked for mailbox domains' TXT records; unset: the system's",
    }),
  ),
  EVENT_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    maximum: 3650,
    description:
      'Days the event log (GET /v1/events) keeps an event, and webhooks a finished delivery, before a background job deletes it',
  }),
  EVENT_STREAM_HEARTBEAT_MS: Type.Integer({
    minimum: 10,
    maximum: 300_000,
    description: 'How often GET /v1/events/stream sends a heartbeat comment on an open stream, so proxies keep it open',
  }),
  EVENT_STREAM_MAX_CONNECTIONS: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    description: 'Open event streams one process holds; past it, a new stream is answered 503 (the client retries)',
  }),
  EVENT_WATCH_INTERVAL_MS: Type.Integer({
    minimum: 10,
    maximum: 1000,
    description:
      'How often new events are looked for while streams are open: by one process at a time on PostgreSQL, which tells the others with NOTIFY',
  }),
  SITE_CACHE_MAX_PAGES: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    description:
      'Rendered help-center pages one process keeps in memory for anonymous readers (the least recently used go first); 0 keeps none',
  }),
  SITE_CACHE_MAX_BYTES: Type.Integer({
    minimum: 0,
    maximum: 4 * 1024 * 1024 * 1024,
    description: 'The most bytes of HTML those cached pages may hold together',
  }),
  SECRET_KEY: Type.Optional(
    Type.String({
      pattern: '^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$',
      description: '32-byte key (64 hex digits or base64) encrypting stored credentials; required with DATABASE_URL',
    }),
  ),
  OUTBOUND_ALLOWED_HOSTS: Type.Optional(
    Type.String({
      description:
        'Comma-separated host[:port] list that MCP servers and webhooks may reach although private, and over plain http (e.g. 127.0.0.1)',
    }),
  ),
  LLM_BASE_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      description:
        'OpenAI-compatible endpoint (e.g. http://127.0.0.1:11434/v1 for Ollama) serving agents that name no model provider of their organization',
    }),
  ),
  LLM_API_KEY: Type.Optional(Type.String({ description: 'API key of LLM_BASE_URL, if it needs one' })),
  LLM_MODEL: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Model of LLM_BASE_URL used when an agent names none' }),
  ),
  MCP_OAUTH_RETURN_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      description:
        "Page the MCP OAuth callback sends the browser to, with ?mcp=connected|error&agent_id=&server_id=; default: the console's /app/agents/mcp-connected when the console is built",
    }),
  ),
  SLACK_CLIENT_ID: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: "The Slack app's client ID (its Basic Information page)" }),
  ),
  SLACK_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "The Slack app's client secret" })),
  SLACK_SIGNING_SECRET: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: "The Slack app's signing secret, which Slack signs its requests with",
    }),
  ),
  SLACK_API_URL: Type.String({
    pattern: '^https?://[^\\s]+/$',
    description: "Base of Slack's Web API, ending in / (another server speaking it, for tests or air-gapped installs)",
  }),
  SLACK_AUTHORIZE_URL: Type.String({
    pattern: '^https?://[^\\s]+$',
    description: "Slack's OAuth v2 authorize page, where an admin installs the app",
  }),
  REDIS_URL: Type.Optional(
    Type.String({ pattern: '^rediss?://', description: 'Redis shared by every process for rate-limit counters (optional)' }),
  ),
  AUTH_FAILURES_PER_MINUTE: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    description: 'Requests with a missing or bad API key allowed per client address and minute before 429 (0: unlimited)',
  }),
  SIGN_IN_FAILURES_PER_ADDRESS: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    description:
      'Failed sign-ins (and password-reset requests) allowed per client address in 15 minutes before 429 (0: unlimited)',
  }),
  SIGN_IN_FAILURES_PER_ACCOUNT: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    description: 'Failed sign-ins (and password-reset requests) allowed per email in 15 minutes before 429 (0: unlimited)',
  }),
  MESSENGER_VISITORS_PER_ADDRESS: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    description:
      'Messenger visitors (anonymous visitor tokens) one client address may create per MESSENGER_VISITOR_WINDOW_SECONDS before 429 (0: unlimited)',
  }),
  MESSENGER_VISITOR_WINDOW_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    description: 'The window of MESSENGER_VISITORS_PER_ADDRESS, in seconds',
  }),
  MESSENGER_MESSAGES_PER_VISITOR: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    description: 'Messages one messenger visitor may send per MESSENGER_MESSAGE_WINDOW_SECONDS before 429 (0: unlimited)',
  }),
  MESSENGER_MESSAGES_PER_ADDRESS: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    description:
      'Messages all messenger visitors of one client address may send per MESSENGER_MESSAGE_WINDOW_SECONDS (0: unlimited)',
  }),
  MESSENGER_MESSAGES_PER_HELP_CENTER: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    description:
      "Messages all visitors of one help center's messenger may send per MESSENGER_MESSAGE_WINDOW_SECONDS (0: unlimited)",
  }),
  MESSENGER_AI_TOKENS_PER_DAY: Type.Integer({
    minimum: 0,
    maximum: 1_000_000_000,
    description:
      "AI tokens one help center's messenger may spend per day (UTC) answering visitors, besides the agent's own monthly budget (0: unlimited)",
  }),
  MESSENGER_MESSAGE_WINDOW_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    description: 'The window of the MESSENGER_MESSAGES_PER_* limits, in seconds',
  }),
  RATE_LIMIT_PER_MINUTE: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description: 'Requests allowed per API key (or signed-in session) and minute (unset: unlimited)',
    }),
  ),
  TRUST_PROXY: Type.Optional(
    Type.String({
      pattern: '^(true|[0-9a-fA-F.:/]+(,\\s*[0-9a-fA-F.:/]+)*)$',
      description: 'Reverse proxies whose X-Forwarded-For names the client: true (any), or their comma-separated addresses/CIDRs',
    }),
  ),
  PLATFORM_PORT: Type.Optional(Port('Own port for the support platform (/v1)')),
  HELP_CENTER_PORT: Type.Optional(Port('Own port for the help center')),
  AGENT_STUDIO_PORT: Type.Optional(Port('Own port for the agent studio (/api/v1)')),
  METRICS_TOKEN: Type.Optional(
    Type.String({ pattern: '^[\\x21-\\x7e]{16,}$', description: 'Bearer token GET /metrics requires' }),
  ),
  METRICS_PORT: Type.Optional(Port('Own port serving GET /metrics (and /healthz), e.g. reached by Prometheus alone')),
});

export type Config = Static<typeof ConfigSchema>;

const DEFAULTS = {
  PORT: '3000',
  HOST: '127.0.0.1',
  DATA_DIR: './data',
  DATABASE_POOL_MAX: '10',
  LOG_LEVEL: 'info',
  BODY_LIMIT_BYTES: String(1024 * 1024),
  API_KEY_CACHE_SECONDS: '5',
  SHUTDOWN_TIMEOUT_MS: '10000',
  ATTACHMENT_MAX_BYTES: String(25 * 1024 * 1024),
  SMTP_FROM: 'Switchboard <support@switchboard.local>',
  OUTBOX_POLL_MS: '1000',
  WEBHOOK_POLL_MS: '1000',
  TICKET_AGENT_POLL_MS: '1000',
  INBOUND_MAX_PER_SENDER_PER_HOUR: '30',
  IMAP_POLL_MS: '60000',
  INBOUND_MAX_BYTES: String(25 * 1024 * 1024),
  EVENT_RETENTION_DAYS: '30',
  EVENT_STREAM_HEARTBEAT_MS: '15000',
  EVENT_STREAM_MAX_CONNECTIONS: '10000',
  EVENT_WATCH_INTERVAL_MS: '250',
  SITE_CACHE_MAX_PAGES: '2000',
  SITE_CACHE_MAX_BYTES: String(64 * 1024 * 1024),
  AUTH_FAILURES_PER_MINUTE: '30',
  SIGN_IN_FAILURES_PER_ADDRESS: '20',
  SIGN_IN_FAILURES_PER_ACCOUNT: '10',
  MESSENGER_VISITORS_PER_ADDRESS: '30',
  MESSENGER_VISITOR_WINDOW_SECONDS: '600',
  MESSENGER_MESSAGES_PER_VISITOR: '20',
  MESSENGER_MESSAGES_PER_ADDRESS: '60',
  MESSENGER_MESSAGES_PER_HELP_CENTER: '1000',
  MESSENGER_MESSAGE_WINDOW_SECONDS: '300',
  MESSENGER_AI_TOKENS_PER_DAY: '1000000',
  SLACK_API_URL: 'https://slack.com/api/',
  SLACK_AUTHORIZE_URL: 'https://slack.com/oauth/v2/authorize',
} satisfies Partial<Record<keyof Config, string>>;

/** Variables whose values may hold credentials: an error names them but never echoes the value. */
const SECRET_KEYS = new Set(
  'SECRET_KEY DATABASE_URL SMTP_URL REDIS_URL DKIM_PRIVATE_KEY LLM_API_KEY METRICS_TOKEN SLACK_CLIENT_SECRET SLACK_SIGNING_SECRET'.split(
    ' ',
  ),
);

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const NUMERIC_KEYS = new Set(
  Object.entries(ConfigSchema.properties)
    .filter(([, schema]) => (schema as { type?: string }).type === 'integer')
    .map(([key]) => key),
);

/**
 * Reads the known variables (an empty value counts as unset), applies defaults and checks them all,
 * throwing one `ConfigError` whose single line names every bad variable.
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key]?.trim() || DEFAULTS[key as keyof typeof DEFAULTS];
    if (value === undefined) {
      continue;
    }
    raw[key] = NUMERIC_KEYS.has(key) && /^-?\d+$/.test(value) ? Number(value) : value;
  }
  const problems = new Map<string, string>();
  for (const error of Value.Errors(ConfigSchema, raw)) {
    const key = error.path.replace(/^\//, '');
    if (!problems.has(key)) {
      problems.set(key, `${key} ${describeExpectation(key)}${SECRET_KEYS.has(key) ? '' : ` (got ${JSON.stringify(raw[key])})`}`);
    }
  }
  if (raw.ATTACHMENT_STORAGE === 'database' && raw.DATABASE_URL === undefined) {
    problems.set('ATTACHMENT_STORAGE', 'ATTACHMENT_STORAGE=database needs DATABASE_URL (with SQLite, files are kept on disk)');
  }
  checkDkim(raw, problems);
  if ((raw.SMTP_INBOUND_TLS_CERT === undefined) !== (raw.SMTP_INBOUND_TLS_KEY === undefined)) {
    problems.set('SMTP_INBOUND_TLS_CERT', 'SMTP_INBOUND_TLS_CERT and SMTP_INBOUND_TLS_KEY go together: set both or neither');
  }
  const slack = [raw.SLACK_CLIENT_ID, raw.SLACK_CLIENT_SECRET, raw.SLACK_SIGNING_SECRET];
  if (slack.some((value) => value !== undefined) && slack.some((value) => value === undefined)) {
    problems.set(
      'SLACK_CLIENT_ID',
      'SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET go together: set all three or none',
    );
  }
  if (raw.LLM_MODEL === undefined && raw.LLM_BASE_URL !== undefined) {
    problems.set('LLM_MODEL', 'LLM_BASE_URL needs LLM_MODEL, the model agents use when they name none');
  }
  if (problems.size > 0) {
    throw new ConfigError(`Invalid configuration: ${[...problems.values()].join('; ')}`);
  }
  return raw as Config;
}

const URL_EXPECTED = 'must be an http:// or https:// URL';
/** What a variable's value must be, for the keys whose schema alone does not say it plainly. */
const EXPECTATIONS: Partial<Record<keyof Config, string>> = {
  LOG_LEVEL: 'must be one of fatal, error, warn, info, debug, trace, silent',
  DATABASE_URL: 'must be a postgres:// or postgresql:// URL',
  PUBLIC_BASE_URL: URL_EXPECTED,
  MCP_OAUTH_RETURN_URL: URL_EXPECTED,
  SLACK_API_URL: 'must be an http:// or https:// URL ending in /',
  SLACK_AUTHORIZE_URL: URL_EXPECTED,
  LLM_BASE_URL: URL_EXPECTED,
  SECRET_KEY: 'must be 32 bytes written as 64 hex digits or base64',
  SMTP_URL: 'must be an smtp:// or smtps:// URL',
  REDIS_URL: 'must be a redis:// or rediss:// URL',
  ATTACHMENT_STORAGE: 'must be disk or database',
  DKIM_DOMAIN: 'must be a domain name such as example.com',
  DKIM_SELECTOR: 'must be a DNS label such as switchboard (letters, digits, hyphens; dots between labels)',
  TRUST_PROXY: 'must be true or comma-separated proxy addresses',
  MAILBOX_DNS_SERVERS: 'must be comma-separated IP addresses, each with an optional :port',
  METRICS_TOKEN: 'must be 16 or more visible characters, without spaces',
};

function describeExpectation(key: string): string {
  const schema = ConfigSchema.properties[key as keyof Config] as Record<string, unknown>;
  if (schema.type === 'integer') {
    const max = schema.maximum === undefined ? '' : ` to ${schema.maximum}`;
    return `must be a whole number from ${schema.minimum}${max}`;
  }
  return EXPECTATIONS[key as keyof Config] ?? 'must not be empty';
}

export type AreaName = 'platform' | 'helpCenter' | 'agentStudio';
export const AREAS: readonly AreaName[] = ['platform', 'helpCenter', 'agentStudio'];

const AREA_PORT_KEY = {
  platform: 'PLATFORM_PORT',
  helpCenter: 'HELP_CENTER_PORT',
  agentStudio: 'AGENT_STUDIO_PORT',
} as const satisfies Record<AreaName, keyof Config>;

export interface Listener {
  port: number;
  areas: AreaName[];
  /** Set when the listener answers `GET /metrics`. */
  metrics?: true;
}

/**
 * Areas without a port of their own share `PORT`; areas given the same port share a listener.
 * `/metrics` is served on `METRICS_PORT` (a listener of its own, or the one of an area on that
 * port), else with `METRICS_TOKEN` on every listener, else nowhere.
 */
export function planListeners(config: Config): Listener[] {
  const byPort = new Map<number, AreaName[]>();
  for (const area of AREAS) {
    const port = config[AREA_PORT_KEY[area]] ?? config.PORT;
    byPort.set(port, [...(byPort.get(port) ?? []), area]);
  }
  const metricsPort = config.METRICS_PORT;
  if (metricsPort !== undefined && !byPort.has(metricsPort)) {
    byPort.set(metricsPort, []);
  }
  const servesMetrics = (port: number) => (metricsPort === undefined ? config.METRICS_TOKEN !== undefined : port === metricsPort);
  return [...byPort].map(([port, areas]) => ({ port, areas, ...(servesMetrics(port) ? { metrics: true as const } : {}) }));
}

export type AttachmentStorageKind = NonNullable<Config['ATTACHMENT_STORAGE']>;

/**
 * Where uploaded files' bytes are kept: `ATTACHMENT_STORAGE`, else in PostgreSQL when
 * `DATABASE_URL` is set (so every process behind a load balancer serves the same files) and on
 * disk beside the embedded SQLite file.
 */
export function attachmentStorageOf(config: Pick<Config, 'ATTACHMENT_STORAGE' | 'DATABASE_URL'>): AttachmentStorageKind {
  return config.ATTACHMENT_STORAGE ?? (config.DATABASE_URL ? 'database' : 'disk');
}

/** `TRUST_PROXY` as Fastify's `trustProxy` option. */
export function trustProxyOption(config: Config): boolean | string[] {
  const value = config.TRUST_PROXY;
  if (value === undefined) {
    return false;
  }
  return value === 'true' ? true : value.split(',').map((address) => address.trim());
}

export function publicBaseUrl(config: Config, area: AreaName): string {
  if (config.PUBLIC_BASE_URL) {
    return config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  }
  const port = config[AREA_PORT_KEY[area]] ?? config.PORT;
  return `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
}
