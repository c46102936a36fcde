import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { type AgentRunRecoveryWorker, createAgentRunRecoveryWorker } from './agent-studio/runtime/agent-run-recovery.worker.js';
import { respondToTicket } from './agent-studio/ticket-agents/ticket-agent.service.js';
import { createTicketAgentWorker, type TicketAgentWorker } from './agent-studio/ticket-agents/ticket-agent.worker.js';
import { buildApp, depsOfApp } from './app.js';
import { createImapPoller, type ImapPoller } from './channels/email/imap-poller.worker.js';
import type { InboundDeps } from './channels/email/inbound.service.js';
import { type SmtpReceiver, startSmtpReceiver } from './channels/email/smtp-receiver.js';
import { createSlackWorker, type SlackWorker } from './channels/slack/slack.worker.js';
import { createSlackPostWorker, type SlackPostWorker } from './channels/slack/slack-post.worker.js';
import { createSlackTriageWorker, type SlackTriageWorker } from './channels/slack/slack-triage.worker.js';
import { type Config, planListeners, publicBaseUrl } from './config.js';
import { createDb, type DatabaseHandle } from './db/connect.js';
import { registerDatabaseMetrics } from './db/database-metrics.js';
import { migrateToLatest } from './db/migrate.js';
import { createEmailRetentionWorker, type EmailRetentionWorker } from './delivery/email-messages/email-retention.worker.js';
import { createOutboxWorker, type OutboxWorker } from './delivery/outbox/outbox.worker.js';
import type { AppDeps } from './deps.js';
import { createApiKeyAuth } from './http/api-key-auth.js';
import { type Clock, systemClock } from './lib/clock.js';
import { createIdFactory, type IdFactory } from './lib/ids.js';
import { createMetrics, type Metrics } from './lib/metrics.js';
import { resolveSecretKey } from './lib/secret-box.js';
import { createAttachmentStorage } from './platform/attachments/attachment.storage.js';
import { createEventRetentionWorker, type EventRetentionWorker } from './platform/events/event-retention.worker.js';
import { createFirstStartOrganization } from './platform/organizations/organization.service.js';
import { createRoutingWorker, type RoutingWorker } from './platform/routing/routing.worker.js';
import { createSatisfactionWorker, type SatisfactionWorker } from './platform/satisfaction/satisfaction.worker.js';
import { createTicketSlaWorker, type TicketSlaWorker } from './platform/ticket-sla/ticket-sla.worker.js';
import { type ChatReplyEmailWorker, createChatReplyEmailWorker } from './platform/tickets/chat-reply-email.worker.js';
import { apiKeyLookup } from './platform/users/api-key.service.js';
import { type CredentialsSignal, createCredentialsSignal } from './platform/users/credentials.signal.js';
import { createWebhookWorker, type WebhookWorker } from './platform/webhooks/webhook.worker.js';
import { withConsoleMcpReturn } from './web-console/console.plugin.js';

export const SMTP_URL_MISSING =
  'SMTP_URL is not set: email will not be delivered, and queued messages are marked undeliverable until SMTP_URL is set ' +
  '(then an admin can resend them with POST /v1/outbox/{id}/retry)';

export interface RunningServer {
  apps: FastifyInstance[];
  addresses: string[];
  /** The built-in SMTP receiver's port, when `SMTP_INBOUND_PORT` is set. */
  inboundSmtpPort: number | null;
  close(): Promise<void>;
}

/**
 * Opens the database, applies pending migrations, creates the first organization on an empty
 * database, and listens: one listener per distinct port of the three areas.
 */
export async function startServer(
  given: Config,
  log: Logger,
  print: (line: string) => void,
  // A test fixes "now" (business hours open or closed) by passing its own clock.
  options: { clock?: Clock } = {},
): Promise<RunningServer> {
  const config = withConsoleMcpReturn(given);
  // Before anything opens: without a key for PostgreSQL the start stops here, with one line.
  const secretKey = resolveSecretKey(config);
  const handle: DatabaseHandle = createDb(config);
  const clock = options.clock ?? systemClock;
  const ids = createIdFactory(clock);
  // One registry per process, whatever its listeners: `/metrics` on any of them shows the process.
  const metrics = createMetrics();
  registerDatabaseMetrics(metrics, { db: handle.db, clock, log });
  const processDeps: ProcessDeps = { db: handle.db, clock, ids, config, secretKey, log, metrics };
  const apps: FastifyInstance[] = [];
  const workers: Workers = {};
  try {
    const applied = await migrateToLatest(handle.db);
    log.info({ database: handle.target, applied }, 'database ready');
    const firstOrganization = await createFirstStartOrganization({ db: handle.db, clock, ids });
    // Shown before listening: the key is committed now, and a failed listen must not lose it.
    if (firstOrganization) {
      printFirstStart(config, firstOrganization.apiKey, print);
    }
    await startBackgroundWorkers(processDeps, workers);
    const { addresses, agentStudioDeps } = await listen(processDeps, apps, workers);
    // And a ticket-agent worker: each event becomes one job (a unique constraint), claimed under a
    // lease; its runs go through the agent studio app's runtime, which closes with that app.
    const studio = agentStudioDeps;
    if (studio) {
      workers.ticketAgents = createTicketAgentWorker({
        db: handle.db,
        clock,
        ids,
        pollMs: config.TICKET_AGENT_POLL_MS,
        respond: (job, signal) => respondToTicket(studio, job, signal),
        log,
      });
      workers.ticketAgents.start();
    }
    const stoppables = inStoppingOrder(workers);
    return {
      apps,
      addresses,
      inboundSmtpPort: workers.receiver?.port ?? null,
      close: () => closeAll(apps, handle, stoppables, config.SHUTDOWN_TIMEOUT_MS, log),
    };
  } catch (error) {
    await Promise.allSettled(apps.map((app) => app.close()));
    await workers.outbox?.stop();
    await workers.routing?.stop();
    await workers.chatReplies?.stop();
    await workers.surveys?.stop();
    await workers.sla?.stop();
    await workers.retention?.stop();
    await workers.emailRetention?.stop();
    await workers.webhooks?.stop();
    await workers.recovery?.stop();
    await workers.ticketAgents?.stop();
    await workers.imap?.stop();
    await workers.slack?.stop();
    await workers.slackPosts?.stop();
    await workers.slackTriage?.stop();
    await workers.receiver?.close();
    await workers.credentials?.close();
    await handle.close();
    throw error;
  }
}

/** What the process's workers and apps are built from. */
interface ProcessDeps {
  db: DatabaseHandle['db'];
  clock: Clock;
  ids: IdFactory;
  config: Config;
  secretKey: Buffer;
  log: Logger;
  metrics: Metrics;
}

/** The background work of a process, each set once started, so that a start that fails stops what it began. */
interface Workers {
  outbox?: OutboxWorker;
  routing?: RoutingWorker;
  chatReplies?: ChatReplyEmailWorker;
  surveys?: SatisfactionWorker;
  sla?: TicketSlaWorker;
  retention?: EventRetentionWorker;
  emailRetention?: EmailRetentionWorker;
  webhooks?: WebhookWorker;
  recovery?: AgentRunRecoveryWorker;
  ticketAgents?: TicketAgentWorker;
  imap?: ImapPoller;
  slack?: SlackWorker;
  slackPosts?: SlackPostWorker;
  slackTriage?: SlackTriageWorker;
  receiver?: SmtpReceiver;
  /** What makes the key cache the listeners share forget a changed user's keys (see `listen`). */
  credentials?: CredentialsSignal;
}

function printFirstStart(config: Config, apiKey: string, print: (line: string) => void): void {
  const base = publicBaseUrl(config, 'platform');
  print(
    [
      '',
      'Switchboard made a first organization on this empty database.',
      `Admin API key (shown only this once): ${apiKey}`,
      `Try it: curl -H "x-api-key: ${apiKey}" ${base}/v1/users/me`,
      `API reference: ${base}/docs`,
      '',
    ].join('\n'),
  );
}

/** The workers every process runs, whatever it listens for; each is safe beside the same worker in other processes. */
async function startBackgroundWorkers(deps: ProcessDeps, workers: Workers): Promise<void> {
  const { db, clock, ids, config, secretKey, log, metrics } = deps;
  // Once per process, however many listeners: without it, comments with shouldSendEmail look
  // fine to their authors while every email quietly ends as undeliverable.
  if (!config.SMTP_URL) {
    log.warn(SMTP_URL_MISSING);
  }
  // Every process runs one: messages are claimed atomically, so any number of them is safe.
  workers.outbox = createOutboxWorker({ db, clock, config, log });
  workers.outbox.start();
  // Likewise: waiting tickets are claimed with row locks, so every process runs a routing worker.
  workers.routing = createRoutingWorker({ db, clock, ids, config, secretKey, log });
  workers.routing.start();
  // And the chat replies emailed to visitors who are away: each decided by one conditional update.
  workers.chatReplies = createChatReplyEmailWorker({ db, clock, ids, config, secretKey, log });
  workers.chatReplies.start();
  // And the satisfaction surveys due: each taken by one conditional update.
  workers.surveys = createSatisfactionWorker({ db, clock, ids, config, secretKey, log });
  workers.surveys.start();
  // And the SLA warnings and breaches due: each announced by one conditional update.
  workers.sla = createTicketSlaWorker({ db, clock, ids, config, secretKey, log, metrics });
  workers.sla.start();
  // And an event pruner: its batches skip rows another process is deleting.
  workers.retention = createEventRetentionWorker({ db, clock, config, log });
  workers.retention.start();
  // And, with EMAIL_RETENTION_DAYS, an email pruner: likewise.
  const days = config.EMAIL_RETENTION_DAYS;
  workers.emailRetention =
    days === undefined ? undefined : createEmailRetentionWorker({ db, clock, config: { EMAIL_RETENTION_DAYS: days }, log });
  workers.emailRetention?.start();
  // And a webhook worker: endpoints are dispatched under row locks, deliveries claimed under leases.
  workers.webhooks = createWebhookWorker({ db, clock, ids, config, secretKey, log });
  workers.webhooks.start();
  // And an agent-run sweep: runs whose process stopped are failed by a conditional update, once.
  workers.recovery = createAgentRunRecoveryWorker({ db, clock, ids, log, metrics });
  workers.recovery.start();
  const inbound: InboundDeps = { db, clock, ids, config, secretKey, storage: createAttachmentStorage(config), metrics };
  // And an IMAP poller: mailboxes are leased one poller at a time, and a message stored twice is caught by its Message-ID.
  workers.imap = createImapPoller({ ...inbound, log });
  workers.imap.start();
  // And a Slack worker: kept events are claimed under leases, one channel's in order.
  workers.slack = createSlackWorker({ ...inbound, log });
  workers.slack.start();
  // And the agents' replies posted to Slack threads: each claimed under a lease, one ticket's in order.
  workers.slackPosts = createSlackPostWorker({ db, clock, ids, config, secretKey, log });
  workers.slackPosts.start();
  // And the triage posts of tickets from Slack: each organization's log read behind a leased cursor.
  workers.slackTriage = createSlackTriageWorker({ db, clock, ids, config, secretKey, log });
  workers.slackTriage.start();
  if (config.SMTP_INBOUND_PORT !== undefined) {
    workers.receiver = await startSmtpReceiver({ ...inbound, log }, inboundSmtpOptions(config, config.SMTP_INBOUND_PORT));
  }
}

/** Builds an app per listener and listens; `apps` receives each as it is built, so a failed listen closes those before it. */
async function listen(
  deps: ProcessDeps,
  apps: FastifyInstance[],
  workers: Workers,
): Promise<{ addresses: string[]; agentStudioDeps: AppDeps | undefined }> {
  const { db, clock, ids, config, secretKey, log, metrics } = deps;
  const auth = createApiKeyAuth({ lookup: apiKeyLookup(db, { clock, log }), ttlSeconds: config.API_KEY_CACHE_SECONDS });
  const credentials = createCredentialsSignal({ db, log, cache: auth, listen: config.API_KEY_CACHE_SECONDS > 0 });
  workers.credentials = credentials;
  const addresses: string[] = [];
  let agentStudioDeps: AppDeps | undefined;
  for (const listener of planListeners(config)) {
    const app = await buildApp({
      ...{ config, db, clock, log, ids, auth, credentials, secretKey, metrics },
      areas: listener.areas,
      servesMetrics: listener.metrics === true,
    });
    apps.push(app);
    if (listener.areas.includes('agentStudio')) {
      agentStudioDeps = depsOfApp(app);
    }
    addresses.push(await app.listen({ port: listener.port, host: config.HOST }));
  }
  return { addresses, agentStudioDeps };
}

/** The receiver stops taking mail first; a message in progress is answered before the database closes. */
function inStoppingOrder(workers: Workers): { stop(): Promise<void> }[] {
  const {
    outbox,
    routing,
    chatReplies,
    surveys,
    sla,
    retention,
    emailRetention,
    webhooks,
    recovery,
    ticketAgents,
    imap,
    slack,
    slackPosts,
    slackTriage,
    receiver,
    credentials,
  } = workers;
  return [
    ...(receiver ? [{ stop: () => receiver.close() }] : []),
    ...(outbox ? [outbox] : []),
    ...(routing ? [routing] : []),
    ...(chatReplies ? [chatReplies] : []),
    ...(surveys ? [surveys] : []),
    ...(sla ? [sla] : []),
    ...(retention ? [retention] : []),
    ...(emailRetention ? [emailRetention] : []),
    ...(webhooks ? [webhooks] : []),
    ...(recovery ? [recovery] : []),
    ...(ticketAgents ? [ticketAgents] : []),
    ...(imap ? [imap] : []),
    ...(slack ? [slack] : []),
    ...(slackPosts ? [slackPosts] : []),
    ...(slackTriage ? [slackTriage] : []),
    ...(credentials ? [{ stop: () => credentials.close() }] : []),
  ];
}

/** Where the SMTP receiver listens (`SMTP_INBOUND_HOST`, else `HOST`), with STARTTLS when a certificate is given. */
function inboundSmtpOptions(config: Config, port: number) {
  const { SMTP_INBOUND_TLS_CERT: cert, SMTP_INBOUND_TLS_KEY: key } = config;
  return {
    port,
    host: config.SMTP_INBOUND_HOST ?? config.HOST,
    tls: cert && key ? { cert: readFileSync(cert), key: readFileSync(key) } : undefined,
  };
}

async function closeAll(
  apps: FastifyInstance[],
  handle: DatabaseHandle,
  workers: readonly { stop(): Promise<void> }[],
  timeoutMs: number,
  log: Logger,
): Promise<void> {
  // Fastify stops accepting at once, answers 503 to new requests on open connections, and
  // resolves when in-flight requests are done; past the grace period we close anyway.
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const drained = Promise.allSettled(apps.map((app) => app.close())).then(() => 'drained' as const);
  const outcome = await Promise.race([drained, grace]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    log.warn({ timeoutMs }, 'in-flight requests did not finish in time; closing anyway');
  }
  for (const worker of workers) {
    await worker.stop();
  }
  await handle.close();
}

/** Runs until SIGTERM or SIGINT, then shuts down gracefully; a second signal exits at once. */
export function closeOnSignals(server: RunningServer, log: Logger): Promise<void> {
  return new Promise((resolve) => {
    let closing = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (closing) {
        log.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      closing = true;
      log.info({ signal }, 'shutting down');
      server.close().then(
        () => resolve(),
        (error: unknown) => {
          log.error({ err: error }, 'shutdown failed');
          resolve();
        },
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}
