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
import { type Config, planListeners, publicBaseUrl } from './config.js';
import { createDb, type DatabaseHandle } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { createEmailRetentionWorker, type EmailRetentionWorker } from './delivery/email-messages/email-retention.worker.js';
import { createOutboxWorker, type OutboxWorker } from './delivery/outbox/outbox.worker.js';
import type { AppDeps } from './deps.js';
import { createApiKeyAuth } from './http/api-key-auth.js';
import { systemClock } from './lib/clock.js';
import { createIdFactory } from './lib/ids.js';
import { resolveSecretKey } from './lib/secret-box.js';
import { createAttachmentStorage } from './platform/attachments/attachment.storage.js';
import { createEventRetentionWorker, type EventRetentionWorker } from './platform/events/event-retention.worker.js';
import { createFirstStartOrganization } from './platform/organizations/organization.service.js';
import { createRoutingWorker, type RoutingWorker } from './platform/routing/routing.worker.js';
import { apiKeyLookup } from './platform/users/api-key.service.js';
import { createWebhookWorker, type WebhookWorker } from './platform/webhooks/webhook.worker.js';

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
export async function startServer(config: Config, log: Logger, print: (line: string) => void): Promise<RunningServer> {
  // Before anything opens: without a key for PostgreSQL the start stops here, with one line.
  const secretKey = resolveSecretKey(config);
  const handle: DatabaseHandle = createDb(config);
  const clock = systemClock;
  const ids = createIdFactory(clock);
  const apps: FastifyInstance[] = [];
  let outbox: OutboxWorker | undefined;
  let routing: RoutingWorker | undefined;
  let retention: EventRetentionWorker | undefined;
  let emailRetention: EmailRetentionWorker | undefined;
  let webhooks: WebhookWorker | undefined;
  let recovery: AgentRunRecoveryWorker | undefined;
  let ticketAgents: TicketAgentWorker | undefined;
  let imap: ImapPoller | undefined;
  let receiver: SmtpReceiver | undefined;
  try {
    const applied = await migrateToLatest(handle.db);
    log.info({ database: handle.target, applied }, 'database ready');
    const firstOrganization = await createFirstStartOrganization({ db: handle.db, clock, ids });
    // Shown before listening: the key is committed now, and a failed listen must not lose it.
    if (firstOrganization) {
      const base = publicBaseUrl(config, 'platform');
      print(
        [
          '',
          'Switchboard made a first organization on this empty database.',
          `Admin API key (shown only this once): ${firstOrganization.apiKey}`,
          `Try it: curl -H "x-api-key: ${firstOrganization.apiKey}" ${base}/v1/users/me`,
          `API reference: ${base}/docs`,
          '',
        ].join('\n'),
      );
    }

    // Once per process, however many listeners: without it, comments with shouldSendEmail look
    // fine to their authors while every email quietly ends as undeliverable.
    if (!config.SMTP_URL) {
      log.warn(SMTP_URL_MISSING);
    }
    // Every process runs one: messages are claimed atomically, so any number of them is safe.
    const worker = createOutboxWorker({ db: handle.db, clock, config, log });
    outbox = worker;
    worker.start();
    // Likewise: waiting tickets are claimed with row locks, so every process runs a routing worker.
    const router = createRoutingWorker({ db: handle.db, clock, ids, config, secretKey, log });
    routing = router;
    router.start();
    // And an event pruner: its batches skip rows another process is deleting.
    const pruner = createEventRetentionWorker({ db: handle.db, clock, config, log });
    retention = pruner;
    pruner.start();
    // And, with EMAIL_RETENTION_DAYS, an email pruner: likewise.
    const days = config.EMAIL_RETENTION_DAYS;
    const emailPruner =
      days === undefined
        ? undefined
        : createEmailRetentionWorker({ db: handle.db, clock, config: { EMAIL_RETENTION_DAYS: days }, log });
    emailRetention = emailPruner;
    emailPruner?.start();
    // And a webhook worker: endpoints are dispatched under row locks, deliveries claimed under leases.
    const webhookWorker = createWebhookWorker({ db: handle.db, clock, ids, config, secretKey, log });
    webhooks = webhookWorker;
    webhookWorker.start();
    // And an agent-run sweep: runs whose process stopped are failed by a conditional update, once.
    const runRecovery = createAgentRunRecoveryWorker({ db: handle.db, clock, ids, log });
    recovery = runRecovery;
    runRecovery.start();
    const inbound: InboundDeps = { db: handle.db, clock, ids, config, secretKey, storage: createAttachmentStorage(config) };
    // And an IMAP poller: mailboxes are leased one poller at a time, and a message stored twice is caught by its Message-ID.
    const poller = createImapPoller({ ...inbound, log });
    imap = poller;
    poller.start();
    if (config.SMTP_INBOUND_PORT !== undefined) {
      receiver = await startSmtpReceiver({ ...inbound, log }, inboundSmtpOptions(config, config.SMTP_INBOUND_PORT));
    }
    const smtpReceiver = receiver;

    const auth = createApiKeyAuth({ lookup: apiKeyLookup(handle.db), ttlSeconds: config.API_KEY_CACHE_SECONDS });
    const addresses: string[] = [];
    let agentStudioDeps: AppDeps | undefined;
    for (const listener of planListeners(config)) {
      const app = await buildApp({ config, db: handle.db, clock, log, ids, auth, secretKey, areas: listener.areas });
      apps.push(app);
      if (listener.areas.includes('agentStudio')) {
        agentStudioDeps = depsOfApp(app);
      }
      addresses.push(await app.listen({ port: listener.port, host: config.HOST }));
    }
    // And a ticket-agent worker: each event becomes one job (a unique constraint), claimed under a
    // lease; its runs go through the agent studio app's runtime, which closes with that app.
    const studio = agentStudioDeps;
    if (studio) {
      ticketAgents = createTicketAgentWorker({
        db: handle.db,
        clock,
        ids,
        pollMs: config.TICKET_AGENT_POLL_MS,
        respond: (job, signal) => respondToTicket(studio, job, signal),
        log,
      });
      ticketAgents.start();
    }
    const ticketAgentWorker = ticketAgents;
    // The receiver stops taking mail first; a message in progress is answered before the database closes.
    const stoppables = [
      ...(smtpReceiver ? [{ stop: () => smtpReceiver.close() }] : []),
      worker,
      router,
      pruner,
      ...(emailPruner ? [emailPruner] : []),
      webhookWorker,
      runRecovery,
      ...(ticketAgentWorker ? [ticketAgentWorker] : []),
      poller,
    ];
    return {
      apps,
      addresses,
      inboundSmtpPort: smtpReceiver?.port ?? null,
      close: () => closeAll(apps, handle, stoppables, config.SHUTDOWN_TIMEOUT_MS, log),
    };
  } catch (error) {
    await Promise.allSettled(apps.map((app) => app.close()));
    await outbox?.stop();
    await routing?.stop();
    await retention?.stop();
    await emailRetention?.stop();
    await webhooks?.stop();
    await recovery?.stop();
    await ticketAgents?.stop();
    await imap?.stop();
    await receiver?.close();
    await handle.close();
    throw error;
  }
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
