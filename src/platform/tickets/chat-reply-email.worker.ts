import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import type { TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import { createPollingLoop } from '../../lib/polling-loop.js';
import { emailDueChatReplies } from './chat-reply-email.service.js';

export interface ChatReplyEmailWorkerDeps extends TicketEmailDeps {
  db: Kysely<DB>;
  log: Pick<FastifyBaseLogger, 'error'>;
}

export interface ChatReplyEmailWorker {
  start(): void;
  stop(): Promise<void>;
  /** One pass over the replies due now; resolves to how many it decided. */
  runOnce(): Promise<number>;
}

/**
 * Emails the chat replies whose visitor is away once they are due (`chat-reply-email.service.ts`),
 * in every process: each reply is decided by one conditional update, so none is emailed twice.
 */
export function createChatReplyEmailWorker(
  deps: ChatReplyEmailWorkerDeps,
  options: { intervalMs?: number; batchSize?: number } = {},
): ChatReplyEmailWorker {
  const batchSize = options.batchSize ?? 100;
  const runOnce = () => emailDueChatReplies(deps, batchSize);
  const loop = createPollingLoop({
    pass: runOnce,
    intervalMs: options.intervalMs ?? 15_000,
    batchSize,
    onError: (error) => deps.log.error({ err: error }, 'chat reply emails pass failed'),
  });
  return { start: loop.start, stop: loop.stop, runOnce };
}
