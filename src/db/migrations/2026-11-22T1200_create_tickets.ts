import { type Kysely, sql } from 'kysely';
import { columnTypes } from '../dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);

  await db.schema
    .createTable('customer_contacts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('first_name', 'text', (col) => col.notNull())
    .addColumn('last_name', 'text')
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('phone_number', 'text')
    .addColumn('contact_type_id', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('metadata', types.json)
    .addColumn('custom_field_values', types.json, (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addColumn('deleted_at', types.timestamp)
    .execute();
  // A deleted contact frees its email for a new one; its tickets keep pointing at the old row.
  await sql`create unique index customer_contacts_organization_email on customer_contacts (organization_id, lower(email)) where deleted_at is null`.execute(
    db,
  );

  // Statuses, priorities and types of a team's tickets, one table told apart by `kind`.
  await db.schema
    .createTable('ticket_options')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('team_id', 'text', (col) => col.notNull().references('teams.id'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('display_name', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('color', 'text')
    .addColumn('is_default', types.boolean, (col) => col.notNull())
    .addColumn('is_closed', types.boolean, (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .execute();
  await sql`create unique index ticket_options_team_kind_name on ticket_options (team_id, kind, lower(name))`.execute(db);

  // The last ticket number handed out per team; bumped in the ticket's own transaction.
  await db.schema
    .createTable('team_ticket_counters')
    .addColumn('team_id', 'text', (col) => col.primaryKey().references('teams.id'))
    .addColumn('last_number', 'integer', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('tickets')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('team_id', 'text', (col) => col.notNull().references('teams.id'))
    .addColumn('ticket_number', 'integer', (col) => col.notNull())
    .addColumn('ticket_identifier', 'text', (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('source', 'text')
    .addColumn('account_id', 'text')
    .addColumn('status_id', 'text', (col) => col.notNull().references('ticket_options.id'))
    .addColumn('priority_id', 'text', (col) => col.notNull().references('ticket_options.id'))
    .addColumn('type_id', 'text', (col) => col.references('ticket_options.id'))
    .addColumn('is_private', types.boolean, (col) => col.notNull())
    .addColumn('assigned_agent_id', 'text', (col) => col.references('users.id'))
    .addColumn('requestor_email', 'text', (col) => col.notNull())
    .addColumn('customer_contact_id', 'text', (col) => col.references('customer_contacts.id'))
    .addColumn('submitter_email', 'text')
    .addColumn('metadata', types.json)
    .addColumn('custom_field_values', types.json, (col) => col.notNull())
    .addColumn('due_date', types.timestamp)
    .addColumn('created_by_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('assigned_at', types.timestamp)
    .addColumn('closed_at', types.timestamp)
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addColumn('deleted_at', types.timestamp)
    .addUniqueConstraint('tickets_team_number', ['team_id', 'ticket_number'])
    .execute();
  await db.schema.createIndex('tickets_organization_created').on('tickets').columns(['organization_id', 'created_at']).execute();
  await db.schema.createIndex('tickets_assigned_agent').on('tickets').column('assigned_agent_id').execute();

  await db.schema
    .createTable('ticket_comments')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id'))
    .addColumn('parent_comment_id', 'text', (col) => col.references('ticket_comments.id'))
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('content_html', 'text', (col) => col.notNull())
    .addColumn('content_markdown', 'text', (col) => col.notNull())
    .addColumn('content_json', 'text')
    .addColumn('thread_name', 'text')
    .addColumn('comment_visibility', 'text', (col) => col.notNull())
    .addColumn('comment_type', 'text', (col) => col.notNull())
    .addColumn('is_edited', types.boolean, (col) => col.notNull())
    .addColumn('is_pinned', types.boolean, (col) => col.notNull())
    .addColumn('source_email_id', 'text')
    .addColumn('metadata', types.json)
    .addColumn('author_id', 'text', (col) => col.references('users.id'))
    .addColumn('customer_contact_id', 'text', (col) => col.references('customer_contacts.id'))
    .addColumn('impersonated_user_email', 'text')
    .addColumn('impersonated_user_name', 'text')
    .addColumn('impersonated_user_avatar', 'text')
    .addColumn('attachment_ids', types.json, (col) => col.notNull())
    .addColumn('dedupe_key', 'text')
    .addColumn('dedupe_fingerprint', 'text')
    .addColumn('created_at', types.timestamp, (col) => col.notNull())
    .addColumn('updated_at', types.timestamp, (col) => col.notNull())
    .addColumn('deleted_at', types.timestamp)
    // The idempotency guarantee: one comment per (ticket, key), enforced by the database.
    .addUniqueConstraint('ticket_comments_dedupe', ['ticket_id', 'dedupe_key'])
    .execute();
  await db.schema
    .createIndex('ticket_comments_ticket_created')
    .on('ticket_comments')
    .columns(['ticket_id', 'created_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['ticket_comments', 'tickets', 'team_ticket_counters', 'ticket_options', 'customer_contacts']) {
    await db.schema.dropTable(table).execute();
  }
}
