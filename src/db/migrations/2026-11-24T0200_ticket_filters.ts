import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

/**
 * What the filters, sorts and identifier lookup of the ticket list read:
 * - an index per filter, each ending in the default order (`created_at`, `id`) and holding the
 *   columns the visibility rule reads, so a filtered page is an index range like the plain list;
 * - the `updated_at` order, of the organization and of a team;
 * - lookups by `ticketIdentifier` (`BILL-1`, any case) and by requestor email (any case);
 * - the statuses and priorities, and the tags, of an organization, which name filters and sorts read;
 * - `ticket_custom_field_values`: one row per value of a ticket's custom fields (one per option of
 *   a multiple choice), in a normal form (`value_key`) that an index can match. The JSON in
 *   `tickets.custom_field_values` stays the record; this table is kept in step with it in the
 *   same transaction, and filled here from the tickets that exist.
 * The single-column account and contact indexes give way to ones that also hold the order; they
 * still serve the deletions that follow those foreign keys.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const visibility = ['is_private', 'assigned_agent_id', 'deleted_at'];
  const live = sql<boolean>`deleted_at is null`;
  const indexes: [string, string[]][] = [
    ['tickets_live_organization_updated', ['organization_id', 'updated_at', 'id', 'team_id', ...visibility]],
    ['tickets_live_team_updated', ['team_id', 'updated_at', 'id', 'organization_id', ...visibility]],
    ['tickets_live_status_created', ['status_id', 'created_at', 'id', 'organization_id', 'team_id', ...visibility]],
    ['tickets_live_priority_created', ['priority_id', 'created_at', 'id', 'organization_id', 'team_id', ...visibility]],
    [
      'tickets_live_assignee_created',
      ['organization_id', 'assigned_agent_id', 'created_at', 'id', 'team_id', 'is_private', 'deleted_at'],
    ],
  ];
  for (const [name, columns] of indexes) {
    await db.schema.createIndex(name).on('tickets').columns(columns).where(live).execute();
  }
  // Not partial: they also serve the deletion of an account or contact, which follows every ticket.
  await db.schema.createIndex('tickets_account_created').on('tickets').columns(['account_id', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('tickets_customer_contact_created')
    .on('tickets')
    .columns(['customer_contact_id', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('tickets_account').execute();
  await db.schema.dropIndex('tickets_customer_contact').execute();
  await sql`create index tickets_live_requestor_created on tickets (organization_id, lower(requestor_email), created_at, id) where deleted_at is null`.execute(
    db,
  );
  // Not unique: a team that gives up an identifier lets another team take it, and both then have
  // a ticket 1 (the lookup takes the newest, which is the current holder's).
  await sql`create index tickets_organization_identifier on tickets (organization_id, lower(ticket_identifier))`.execute(db);

  // The `tag` filter by name reads the tags of every team.
  await sql`create index team_tags_organization_name on team_tags (organization_id, lower(name))`.execute(db);
  // Filters by status or priority name, and those sorts, read the options of every team.
  await db.schema
    .createIndex('ticket_options_organization_kind')
    .on('ticket_options')
    .columns(['organization_id', 'kind', 'position'])
    .execute();

  await db.schema
    .createTable('ticket_custom_field_values')
    .addColumn('ticket_id', 'text', (col) => col.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('field_id', 'text', (col) => col.notNull())
    .addColumn('value_key', 'text', (col) => col.notNull())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('ticket_custom_field_values_pk', ['ticket_id', 'field_id', 'value_key'])
    .execute();
  await db.schema
    .createIndex('ticket_custom_field_values_lookup')
    .on('ticket_custom_field_values')
    .columns(['organization_id', 'field_id', 'value_key', 'ticket_id'])
    .execute();
  await backfillCustomFieldValues(db);
}

/**
 * The normal form of one value, as the application writes it (`ticket-filters.ts`): text in lower
 * case (a filter matches any case), numbers in JavaScript's shortest form; a text longer than an
 * index entry may hold becomes its SHA-256, which a filter for the same text computes alike.
 * Copied, not imported: a migration stays as it was when it landed.
 */
function valueKeys(value: unknown): string[] {
  const one = (item: unknown): string | null => {
    if (typeof item === 'number' && Number.isFinite(item)) {
      return String(item);
    }
    if (typeof item !== 'string' || item.trim() === '') {
      return null;
    }
    const text = item.trim().toLowerCase();
    return text.length <= 200 ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`;
  };
  const keys = (Array.isArray(value) ? value : [value]).map(one).filter((key): key is string => key !== null);
  return [...new Set(keys)];
}

/** Fills `ticket_custom_field_values` from the tickets' JSON (exported for its test). */
// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function backfillCustomFieldValues(db: Kysely<any>): Promise<void> {
  let after = '';
  for (;;) {
    const tickets: { id: string; organization_id: string; custom_field_values: string }[] = await db
      .selectFrom('tickets')
      .select(['id', 'organization_id', 'custom_field_values'])
      .where('id', '>', after)
      .where('custom_field_values', '<>', '[]')
      .orderBy('id')
      .limit(500)
      .execute();
    const last = tickets.at(-1);
    if (!last) {
      return;
    }
    after = last.id;
    const rows = tickets.flatMap((ticket) => {
      let entries: unknown;
      try {
        entries =
          typeof ticket.custom_field_values === 'string' ? JSON.parse(ticket.custom_field_values) : ticket.custom_field_values;
      } catch {
        return [];
      }
      if (!Array.isArray(entries)) {
        return [];
      }
      return entries.flatMap((entry: { fieldId?: unknown; value?: unknown }) =>
        typeof entry?.fieldId === 'string'
          ? valueKeys(entry.value).map((key) => ({
              ticket_id: ticket.id,
              field_id: entry.fieldId,
              value_key: key,
              organization_id: ticket.organization_id,
            }))
          : [],
      );
    });
    for (let start = 0; start < rows.length; start += 200) {
      await db
        .insertInto('ticket_custom_field_values')
        .values(rows.slice(start, start + 200))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations take an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ticket_custom_field_values').execute();
  await db.schema.dropIndex('ticket_options_organization_kind').execute();
  await db.schema.dropIndex('team_tags_organization_name').execute();
  await db.schema.createIndex('tickets_account').on('tickets').column('account_id').execute();
  await db.schema.createIndex('tickets_customer_contact').on('tickets').column('customer_contact_id').execute();
  for (const name of [
    'tickets_organization_identifier',
    'tickets_live_requestor_created',
    'tickets_customer_contact_created',
    'tickets_account_created',
    'tickets_live_assignee_created',
    'tickets_live_priority_created',
    'tickets_live_status_created',
    'tickets_live_team_updated',
    'tickets_live_organization_updated',
  ]) {
    await db.schema.dropIndex(name).execute();
  }
}
