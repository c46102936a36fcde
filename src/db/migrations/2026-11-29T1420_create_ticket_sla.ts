import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  // One row per ticket and metric: the running (or last) instance of that SLA target. The
  // policy is not a foreign key: deleting a policy leaves the history of the tickets it governed.
  await db.schema
    .createTable('ticket_sla_targets')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('policy_id', 'text', (col) => col.notNull())
    .addColumn('metric', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('target_minutes', 'integer', (col) => col.notNull())
    .addColumn('business_hours', types.boolean, (col) => col.notNull())
    // The policy's aiRepliesCount, copied so the comment path meets targets in one statement.
    .addColumn('ai_replies_count', types.boolean, (col) => col.notNull())
    .addColumn('warning_share', 'double precision', (col) => col.notNull())
    .addColumn('started_at', types.timestamp, (col) => col.notNull())
    // Null while paused, met or breached-and-stopped.
    .addColumn('due_at', types.timestamp)
    // Business minutes consumed before `running_since` (the last resume or the start).
    .addColumn('consumed_minutes', 'double precision', (col) => col.notNull())
    .addColumn('running_since', types.timestamp)
    .addColumn('met_at', types.timestamp)
    .addColumn('breached_at', types.timestamp)
    // For the notifying worker (claimed through db/job-queue.ts): when to warn, and what was sent.
    .addColumn('warn_at', types.timestamp)
    .addColumn('warned_at', types.timestamp)
    .addColumn('breach_notified_at', types.timestamp)
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addUniqueConstraint('ticket_sla_targets_ticket_metric', ['ticket_id', 'metric'])
    .execute();
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

  // The auditable clock: every start, pause, resume, met, breach and policy change, with who and why.
  await db.schema
    .createTable('ticket_sla_events')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('policy_id', 'text')
    .addColumn('target_id', 'text')
    .addColumn('metric', 'text')
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('due_at', types.timestamp)
    .addColumn('actor_type', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('ticket_sla_events_ticket').on('ticket_sla_events').columns(['ticket_id', 'id']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ticket_sla_events').execute();
  await db.schema.dropTable('ticket_sla_targets').execute();
}
