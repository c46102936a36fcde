import type { Kysely } from 'kysely';
import { columnTypes } from '../dialect.js';

/**
 * Indexes of the platform's lists (users, API keys, outbox, accounts, contacts, notes, custom
 * fields, teams, members, routing history) and of the foreign keys that reads follow.
 *
 * Each list index holds (filter columns, order columns, id), so that a keyset page is one index
 * range and the id query of a `page` (a deferred join) is answered from the index alone. Lists of
 * live rows use partial indexes on the live rows; the soft-delete column is kept as the last
 * column too, because SQLite counts an index as covering only when it holds every column the
 * query names, the partial index's own condition included.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen and never see feature types
export async function up(db: Kysely<any>): Promise<void> {
  const types = columnTypes(db);

  await db.schema
    .createIndex('users_live_organization_created')
    .ifNotExists()
    .on('users')
    .columns(['organization_id', 'created_at', 'id', 'deleted_at'])
    .where('deleted_at', 'is', null)
    .execute();
  await db.schema
    .createIndex('api_keys_user_created')
    .ifNotExists()
    .on('api_keys')
    .columns(['user_id', 'created_at', 'id'])
    .execute();

  // The outbox list, newest first, of every status or of one.
  await db.schema
    .createIndex('email_outbox_organization_created_id')
    .ifNotExists()
    .on('email_outbox')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('email_outbox_organization_status_created')
    .ifNotExists()
    .on('email_outbox')
    .columns(['organization_id', 'status', 'created_at', 'id'])
    .execute();

  await db.schema
    .createIndex('accounts_live_organization_created')
    .ifNotExists()
    .on('accounts')
    .columns(['organization_id', 'created_at', 'id', 'deleted_at'])
    .where('deleted_at', 'is', null)
    .execute();
  await db.schema
    .createIndex('customer_contacts_live_organization_created')
    .ifNotExists()
    .on('customer_contacts')
    .columns(['organization_id', 'created_at', 'id', 'deleted_at'])
    .where('deleted_at', 'is', null)
    .execute();

  // The contacts of one account are listed in the contacts' creation order. A copy of the
  // contact's creation time on the link (it never changes) lets that list walk one index of the
  // links instead of sorting every contact of the account. Links exist only for live contacts:
  // deleting a contact removes its links.
  await db.schema.alterTable('account_contacts').addColumn('contact_created_at', types.timestamp).execute();
  await db
    .updateTable('account_contacts')
    .set((eb) => ({
      contact_created_at: eb
        .selectFrom('customer_contacts')
        .select('customer_contacts.created_at')
        .whereRef('customer_contacts.id', '=', 'account_contacts.customer_contact_id'),
    }))
    .execute();
  await db.schema
    .createIndex('account_contacts_account_contact_created')
    .ifNotExists()
    .on('account_contacts')
    .columns(['account_id', 'contact_created_at', 'customer_contact_id', 'organization_id'])
    .execute();

  // An account's notes, newest first; visibility and author decide which ones a member sees.
  await db.schema
    .createIndex('account_notes_live_account_created')
    .ifNotExists()
    .on('account_notes')
    .columns(['account_id', 'created_at', 'id', 'visibility', 'author_id', 'deleted_at'])
    .where('deleted_at', 'is', null)
    .execute();
  // Followed from an attachment to the notes it is linked to (who may download it).
  await db.schema
    .createIndex('account_note_attachments_attachment')
    .ifNotExists()
    .on('account_note_attachments')
    .column('attachment_id')
    .execute();

  // Custom fields in creation order, with the columns of the list's filters (team, source, name).
  await db.schema
    .createIndex('custom_fields_live_organization_created')
    .ifNotExists()
    .on('custom_fields')
    .columns(['organization_id', 'created_at', 'uid', 'team_id', 'source', 'name', 'deleted_at'])
    .where('deleted_at', 'is', null)
    .execute();
  // A team's own fields (onlyTeamFields with teamId), without walking the organization-wide ones.
  await db.schema
    .createIndex('custom_fields_live_team_created')
    .ifNotExists()
    .on('custom_fields')
    .columns(['team_id', 'created_at', 'uid', 'organization_id', 'source', 'name', 'deleted_at'])
    .where('deleted_at', 'is', null)
    .execute();

  await db.schema
    .createIndex('teams_active_organization_created')
    .ifNotExists()
    .on('teams')
    .columns(['organization_id', 'created_at', 'id', 'is_private', 'archived_at'])
    .where('archived_at', 'is', null)
    .execute();
  await db.schema
    .createIndex('teams_active_parent_created')
    .ifNotExists()
    .on('teams')
    .columns(['parent_team_id', 'created_at', 'id', 'archived_at'])
    .where('archived_at', 'is', null)
    .execute();
  await db.schema
    .createIndex('team_members_team_joined')
    .ifNotExists()
    .on('team_members')
    .columns(['team_id', 'joined_at', 'user_id'])
    .execute();
  // A team's tags are listed whole (every tag operation answers them all), in creation order.
  await db.schema
    .createIndex('team_tags_team_created')
    .ifNotExists()
    .on('team_tags')
    .columns(['team_id', 'created_at', 'id'])
    .execute();
  // Followed by routing from a sub-team to the teams that fall back to it.
  await db.schema
    .createIndex('team_configurations_fallback_sub_team')
    .ifNotExists()
    .on('team_configurations')
    .column('fallback_sub_team_id')
    .execute();

  await db.schema
    .createIndex('ticket_routing_decisions_ticket_created_id')
    .ifNotExists()
    .on('ticket_routing_decisions')
    .columns(['ticket_id', 'created_at', 'id'])
    .execute();
}

const INDEXES = [
  'users_live_organization_created',
  'api_keys_user_created',
  'email_outbox_organization_created_id',
  'email_outbox_organization_status_created',
  'accounts_live_organization_created',
  'customer_contacts_live_organization_created',
  'account_contacts_account_contact_created',
  'account_notes_live_account_created',
  'account_note_attachments_attachment',
  'custom_fields_live_organization_created',
  'custom_fields_live_team_created',
  'teams_active_organization_created',
  'teams_active_parent_created',
  'team_members_team_joined',
  'team_tags_team_created',
  'team_configurations_fallback_sub_team',
  'ticket_routing_decisions_ticket_created_id',
];

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) {
    await db.schema.dropIndex(index).ifExists().execute();
  }
  await db.schema.alterTable('account_contacts').dropColumn('contact_created_at').execute();
}
