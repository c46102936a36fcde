import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Webhooks: endpoints an organization's admins register, the deliveries of events to them, and
 * every attempt of a delivery. `dispatched_seq` is how far in the organization's event log an
 * endpoint's deliveries have been made; UNIQUE (webhook_id, event_seq) makes a second process
 * turning the same event into a delivery insert nothing. Test deliveries have no event (NULLs are
 * distinct on both databases). Secrets are sealed with `SECRET_KEY`.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('owner_user_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('event_types', types.json, (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('enabled', types.boolean, (col) => col.notNull())
    .addColumn('secret_encrypted', 'text', (col) => col.notNull())
    .addColumn('previous_secret_encrypted', 'text')
    .addColumn('previous_secret_expires_at', types.timestamp)
    .addColumn('dispatched_seq', 'bigint', (col) => col.notNull())
    .addColumn('failing_since', types.timestamp)
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', types.timestamp)
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
  // The organization's webhooks, in creation order (ULIDs).
  await db.schema.createIndex('webhooks_organization_id').on('webhooks').columns(['organization_id', 'id']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('webhook_id', 'text', (col) => col.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event_seq', 'bigint')
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('manual', types.boolean, (col) => col.notNull().defaultTo(false))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', types.timestamp)
    .addColumn('locked_until', types.timestamp)
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', types.timestamp)
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addUniqueConstraint('webhook_deliveries_webhook_event', ['webhook_id', 'event_seq'])
    .execute();
  // Order per endpoint: the oldest delivery still pending or delivering.
  await db.schema
    .createIndex('webhook_deliveries_webhook_status_seq')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'status', 'event_seq'])
    .execute();
  // The worker's due deliveries.
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  // An endpoint's deliveries, newest first.
  await db.schema.createIndex('webhook_deliveries_webhook_id').on('webhook_deliveries').columns(['webhook_id', 'id']).execute();

  await db.schema
    .createTable('webhook_delivery_attempts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('delivery_id', 'text', (col) => col.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('started_at', types.timestamp, (col) => col.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (col) => col.notNull())
    .addColumn('response_body', 'text')
    .addColumn('response_truncated', types.boolean, (col) => col.notNull().defaultTo(false))
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_delivery_attempts_delivery_id')
    .on('webhook_delivery_attempts')
    .columns(['delivery_id', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_delivery_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
