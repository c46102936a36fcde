import type { Insertable, Kysely, Transaction } from 'kysely';
import { prepareQuery } from '../../db/compiled.js';
import type { DB } from '../../db/database.js';
import type { HelpCenterContactSessionTable, HelpCenterSignInLinkTable } from './contact-sign-in.table.js';

type Db = Kysely<DB> | Transaction<DB>;

export async function insertSignInLink(db: Db, row: Insertable<HelpCenterSignInLinkTable>): Promise<void> {
  await db.insertInto('help_center_sign_in_links').values(row).execute();
}

/**
 * Uses the link up: one conditional UPDATE, so that of two requests (or processes) presenting the
 * same token only one gets its contact back. A link of another help center or organization, one
 * used or expired, or one whose contact has since been deleted, changes nothing.
 */
export async function useSignInLink(
  db: Db,
  link: { tokenHash: string; organizationId: string; helpCenterId: string; now: string },
): Promise<{ contact_id: string } | undefined> {
  return db
    .updateTable('help_center_sign_in_links')
    .set({ used_at: link.now })
    .where('token_hash', '=', link.tokenHash)
    .where('organization_id', '=', link.organizationId)
    .where('help_center_id', '=', link.helpCenterId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', link.now)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('customer_contacts')
          .select('customer_contacts.id')
          .whereRef('customer_contacts.id', '=', 'help_center_sign_in_links.contact_id')
          .where('customer_contacts.deleted_at', 'is', null),
      ),
    )
    .returning(['contact_id'])
    .executeTakeFirst();
}

export async function insertContactSession(db: Db, row: Insertable<HelpCenterContactSessionTable>): Promise<void> {
  await db.insertInto('help_center_contact_sessions').values(row).execute();
}

export interface SessionContactRow {
  contact_id: string;
  email: string;
  first_name: string;
  last_name: string | null;
  last_seen_at: string;
}

/** Run on every page a signed-in contact reads: compiled once. */
const sessionContactStatement = prepareQuery<
  { tokenHash: string; organizationId: string; helpCenterId: string; now: string },
  SessionContactRow
>((db: Db, param) =>
  db
    .selectFrom('help_center_contact_sessions')
    .innerJoin('customer_contacts', 'customer_contacts.id', 'help_center_contact_sessions.contact_id')
    .select([
      'help_center_contact_sessions.contact_id',
      'customer_contacts.email',
      'customer_contacts.first_name',
      'customer_contacts.last_name',
      'help_center_contact_sessions.last_seen_at',
    ])
    .where('help_center_contact_sessions.token_hash', '=', param('tokenHash'))
    .where('help_center_contact_sessions.organization_id', '=', param('organizationId'))
    .where('help_center_contact_sessions.help_center_id', '=', param('helpCenterId'))
    .where('help_center_contact_sessions.ended_at', 'is', null)
    .where('help_center_contact_sessions.expires_at', '>', param('now'))
    .where('customer_contacts.organization_id', '=', param('organizationId'))
    .where('customer_contacts.deleted_at', 'is', null),
);

/** The live contact of a session in force (not ended, not expired) of this help center and organization. */
export async function findSessionContact(
  db: Db,
  session: { tokenHash: string; organizationId: string; helpCenterId: string; now: string },
): Promise<SessionContactRow | undefined> {
  const { rows } = await sessionContactStatement.execute(db, session);
  return rows[0];
}

/** Records activity, unless another request of the session already did since `staleBefore`. */
export async function touchContactSession(db: Db, tokenHash: string, at: string, staleBefore: string): Promise<void> {
  await db
    .updateTable('help_center_contact_sessions')
    .set({ last_seen_at: at })
    .where('token_hash', '=', tokenHash)
    .where('last_seen_at', '<', staleBefore)
    .execute();
}

/** Ends the session (signing out); one already ended keeps its first end. */
export async function endContactSessionByTokenHash(db: Db, tokenHash: string, now: string): Promise<void> {
  await db
    .updateTable('help_center_contact_sessions')
    .set({ ended_at: now })
    .where('token_hash', '=', tokenHash)
    .where('ended_at', 'is', null)
    .execute();
}
