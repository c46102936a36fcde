import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Customer satisfaction surveys (CSAT). A team's settings say whether, when and to whom a closed
 * ticket's requestor is asked "Good or Bad?"; each close queues at most one open survey (a partial
 * unique index: a ticket has one survey not yet superseded by a reopen, skipped ones aside); the
 * survey's link token is kept as its SHA-256 only. A contact's last survey time is one row per
 * address, moved forward by one conditional upsert, so a cooldown holds across processes.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);
  await db.schema
    .createTable('satisfaction_settings')
    .addColumn('team_id', 'text', (col) => col.primaryKey().references('teams.id'))
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('enabled', types.boolean, (col) => col.notNull())
    .addColumn('delay_minutes', 'integer', (col) => col.notNull())
    .addColumn('sampling_share', 'double precision', (col) => col.notNull())
    .addColumn('cooldown_days', 'integer', (col) => col.notNull())
    // JSON arrays of team tag ids and priority option ids: a ticket with any of them is not surveyed
    .addColumn('skip_tag_ids', 'text', (col) => col.notNull())
    .addColumn('skip_priority_ids', 'text', (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('satisfaction_surveys')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id'))
    .addColumn('team_id', 'text', (col) => col.notNull().references('teams.id'))
    .addColumn('contact_id', 'text')
    .addColumn('requestor_email', 'text', (col) => col.notNull())
    // pending, sent, skipped or rated
    .addColumn('status', 'text', (col) => col.notNull())
    // sampled_out, skip_condition, cooldown, reopened, no_address, gone
    .addColumn('skip_reason', 'text')
    .addColumn('manual', types.boolean, (col) => col.notNull())
    .addColumn('send_at', types.timestamp, (col) => col.notNull())
    .addColumn('sent_at', types.timestamp)
    .addColumn('token_hash', 'text')
    .addColumn('expires_at', types.timestamp)
    .addColumn('rating', 'text')
    .addColumn('comment', 'text')
    .addColumn('rated_at', types.timestamp)
    .addColumn('reopened_at', types.timestamp)
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('satisfaction_surveys_open_per_ticket')
    .on('satisfaction_surveys')
    .column('ticket_id')
    .unique()
    .where(sql.ref('reopened_at'), 'is', null)
    .where(sql.ref('status'), '<>', 'skipped')
    .execute();
  await db.schema
    .createIndex('satisfaction_surveys_token')
    .on('satisfaction_surveys')
    .column('token_hash')
    .unique()
    .where(sql.ref('token_hash'), 'is not', null)
    .execute();
  await db.schema.createIndex('satisfaction_surveys_due').on('satisfaction_surveys').columns(['status', 'send_at']).execute();
  await db.schema
    .createIndex('satisfaction_surveys_ticket')
    .on('satisfaction_surveys')
    .columns(['ticket_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('satisfaction_contact_cooldowns')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('last_sent_at', types.timestamp, (col) => col.notNull())
    .addPrimaryKeyConstraint('satisfaction_contact_cooldowns_pk', ['organization_id', 'email'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('satisfaction_contact_cooldowns').execute();
  await db.schema.dropTable('satisfaction_surveys').execute();
  await db.schema.dropTable('satisfaction_settings').execute();
}
