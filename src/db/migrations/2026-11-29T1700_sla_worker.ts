import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  // The SLA worker's due indexes hold only what it may still act on: a target met in time (or
  // paused, or not started) keeps its due and warning times for the ticket's answer, and would
  // otherwise stay in the indexes for good, scanned by every pass.
  await db.schema.dropIndex('ticket_sla_targets_due').execute();
  await db.schema.dropIndex('ticket_sla_targets_warn').execute();
  await db.schema
    .createIndex('ticket_sla_targets_due')
    .on('ticket_sla_targets')
    .columns(['due_at'])
    .where(sql.ref('breach_notified_at'), 'is', null)
    .where(sql<boolean>`status in ('active', 'breached')`)
    .execute();
  await db.schema
    .createIndex('ticket_sla_targets_warn')
    .on('ticket_sla_targets')
    .columns(['warn_at'])
    .where(sql.ref('warned_at'), 'is', null)
    .where(sql<boolean>`status = 'active'`)
    .execute();
  // SLA warning and breach emails, on until the user turns them off.
  await db.schema
    .alterTable('user_notification_preferences')
    .addColumn('sla_alerts', types.boolean, (col) => col.notNull().defaultTo(true))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_notification_preferences').dropColumn('sla_alerts').execute();
  await db.schema.dropIndex('ticket_sla_targets_warn').execute();
  await db.schema.dropIndex('ticket_sla_targets_due').execute();
  await db.schema
    .createIndex('ticket_sla_targets_due')
    .on('ticket_sla_targets')
    .columns(['due_at'])
    .where(sql.ref('breach_notified_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('ticket_sla_targets_warn')
    .on('ticket_sla_targets')
    .columns(['warn_at'])
    .where(sql.ref('warned_at'), 'is', null)
    .execute();
}
