import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { listOutboxPage, requeueOutbox } from '../../delivery/outbox/outbox.service.js';
import type { Clock } from '../../lib/clock.js';
import { readListPage } from '../../lib/cursors.js';
import type { Principal } from '../../lib/principal.js';
import { requireOrgAdmin } from '../authorization.js';
import type { ListOutboxQuerySchema } from './email-outbox.schemas.js';

/** The organization's queued and sent email, newest first (then by id), by `page` or by `cursor`; organization admins only. */
export async function listOutbox(db: Kysely<DB>, principal: Principal, query: Static<typeof ListOutboxQuerySchema>) {
  requireOrgAdmin(principal);
  const page = readListPage(query, query.limit ?? 20, 2);
  return listOutboxPage(db, principal.organizationId, { status: query.status, page });
}

/** Queues a failed or undeliverable message again (see `requeueOutbox`); organization admins only. */
export async function retryOutboxMessage(deps: { db: Kysely<DB>; clock: Clock }, principal: Principal, id: string) {
  requireOrgAdmin(principal);
  return requeueOutbox(deps.db, principal.organizationId, id, deps.clock.now().toISOString());
}
