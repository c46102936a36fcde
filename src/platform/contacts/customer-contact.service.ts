import type { Kysely, Transaction, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { readJson, writeJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readListPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { requireIdParam, unique, webUrlField } from '../accounts/account.input.js';
import { findLiveAccountIdsAmong, requireAccount } from '../accounts/account.lookup.js';
import { loadAttributeValues, resolveAttributeValue } from '../accounts/account-attribute.service.js';
import {
  type CustomFieldValueEntry,
  mergeCustomFieldValues,
  validateCustomFieldValues,
} from '../custom-fields/custom-field.values.js';
import { deferEvent, type EventActor, recordEvent } from '../events/event.recorder.js';
import { toContact } from './customer-contact.presenter.js';
import {
  addContactToAccount,
  type ContactRow,
  type ContactSummaryRow,
  findContactById,
  findLiveContactByEmail,
  insertContact,
  insertContactIfAbsent,
  listAccountsOfContacts,
  listContacts,
  removeContactFromAccounts,
  replaceContactAccounts,
  updateContact,
} from './customer-contact.repository.js';
import type { CreateContact, ListContactsQuery, UpdateContact } from './customer-contact.schemas.js';
import type { CustomerContactTable } from './customer-contact.table.js';
/**
 * The organization's contact for an email, made on first sight (first name from the address's
 * local part, or `firstName` when given), in `accountId` when given. Safe when two requests meet
 * the same new email at once: the unique index keeps one.
 */
export async function findOrCreateContactByEmail(
  db: Transaction<DB>,
  deps: { clock: Clock; ids: IdFactory },
  organizationId: string,
  email: string,
  actor: EventActor,
  newContact: { firstName?: string; lastName?: string | null; accountId?: string | null } = {},
): Promise<ContactSummaryRow> {
  const existing = await findLiveContactByEmail(db, organizationId, email);
  if (existing) {
    return existing;
  }
  const at = deps.clock.now().toISOString();
  const id = deps.ids.ulid();
  await insertContactIfAbsent(db, {
    id,
    organization_id: organizationId,
    first_name: newContact.firstName || email.split('@')[0] || email,
    last_name: newContact.lastName ?? null,
    email,
    phone_number: null,
    contact_type_id: null,
    avatar_url: null,
    metadata: null,
    custom_field_values: '[]',
    created_at: at,
    updated_at: at,
    deleted_at: null,
  });
  const contact = await findLiveContactByEmail(db, organizationId, email);
  if (!contact) {
    throw new Error(`contact for ${email} vanished right after it was written`);
  }
  if (contact.id === id) {
    if (newContact.accountId) {
      await replaceContactAccounts(db, { id, organization_id: organizationId, created_at: at }, [newContact.accountId], at);
    }
    // Written with the caller's own event, after the locks it still takes (see `deferEvent`).
    deferEvent(db, organizationId, { type: 'contact.created', actor, data: await readContact(db, organizationId, id) });
  }
  return contact;
}

/**
 * Adds the organization's live contact to the live account `accountId` (both checked by the
 * caller) unless it is a member already. Like a contact's other updates, it records no event.
 */
export async function joinContactToAccount(
  trx: Transaction<DB>,
  deps: { clock: Clock },
  organizationId: string,
  input: { contactId: string; accountId: string },
): Promise<void> {
  const contact = await findContactById(trx, organizationId, input.contactId);
  if (contact) {
    await addContactToAccount(trx, contact, input.accountId, deps.clock.now().toISOString());
  }
}

export const CONTACT_NOT_FOUND = 'Contact not found';

interface ContactDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

export type Contact = ReturnType<typeof toContact>;

/** Contacts in API shape, with the live accounts each belongs to. */
async function withAccounts(db: Kysely<DB> | Transaction<DB>, rows: ContactRow[]): Promise<Contact[]> {
  const links = await listAccountsOfContacts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    toContact(
      row,
      links
        .filter((link) => link.customer_contact_id === row.id)
        .map((link) => ({ id: link.id, name: link.name, primaryDomain: link.primary_domain })),
    ),
  );
}

/** The live contact `id`: blank is the contract's 400, anything else that is not one its 404. */
async function requireContact(db: Kysely<DB> | Transaction<DB>, organizationId: string, id: string | undefined) {
  const contact = await findContactById(db, organizationId, requireIdParam(id, 'Contact ID is required!'));
  if (!contact) {
    throw AppError.notFound(CONTACT_NOT_FOUND);
  }
  return contact;
}

async function readContact(db: Kysely<DB> | Transaction<DB>, organizationId: string, id: string): Promise<Contact> {
  const [contact] = await withAccounts(db, [await requireContact(db, organizationId, id)]);
  if (!contact) {
    throw AppError.notFound(CONTACT_NOT_FOUND);
  }
  return contact;
}

async function requireFreeEmail(trx: Transaction<DB>, organizationId: string, email: string, contactId?: string) {
  const taken = await findLiveContactByEmail(trx, organizationId, email);
  if (taken && taken.id !== contactId) {
    throw AppError.conflict('Customer contact with this email already exists!');
  }
}

/** Every id must be a live account of the organization; a 400 names the others. */
async function requireAccountIds(trx: Transaction<DB>, organizationId: string, ids: readonly string[]): Promise<string[]> {
  const wanted = unique(ids);
  const found = new Set(await findLiveAccountIdsAmong(trx, organizationId, wanted));
  const unknown = wanted.filter((id) => !found.has(id));
  if (unknown.length > 0) {
    throw AppError.invalid(`accountIds contains unknown account ids: ${unknown.join(', ')}`, {
      location: 'body',
      path: ['accountIds'],
      rule: 'reference',
      params: { unknownIds: unknown },
    });
  }
  return wanted;
}

function requireFirstName(firstName: string | undefined): void {
  if (firstName !== undefined && firstName.trim() === '') {
    throw AppError.invalid('firstName must not be blank', { location: 'body', path: ['firstName'], rule: 'minLength' });
  }
}

export async function createContact(deps: ContactDeps, principal: Principal, input: CreateContact): Promise<Contact> {
  const organizationId = principal.organizationId;
  requireFirstName(input.firstName);
  const avatarUrl = webUrlField(input.avatarUrl, 'avatarUrl');
  const email = input.email.trim();
  const id = deps.ids.ulid();
  return deps.db.transaction().execute(async (trx) => {
    const values = await loadAttributeValues(trx, deps, organizationId);
    const contactType = resolveAttributeValue(values, 'contact_type', input.contactType, 'contactType');
    const accountIds = await requireAccountIds(trx, organizationId, input.accountIds ?? []);
    const customFieldValues = await validateCustomFieldValues(
      trx,
      organizationId,
      'customer_contact',
      input.customFieldValues ?? [],
      { onCreate: true },
    );
    await requireFreeEmail(trx, organizationId, email);
    const at = deps.clock.now().toISOString();
    await insertContact(trx, {
      id,
      organization_id: organizationId,
      first_name: input.firstName.trim(),
      last_name: input.lastName ?? null,
      email,
      phone_number: input.phoneNumber ?? null,
      contact_type_id: contactType?.id ?? null,
      avatar_url: avatarUrl ?? null,
      metadata: writeJson(input.metadata),
      custom_field_values: writeJson(mergeCustomFieldValues([], customFieldValues)) ?? '[]',
      created_at: at,
      updated_at: at,
      deleted_at: null,
    });
    await replaceContactAccounts(trx, { id, organization_id: organizationId, created_at: at }, accountIds, at);
    const contact = await readContact(trx, organizationId, id);
    await recordEvent(trx, deps, organizationId, {
      type: 'contact.created',
      actor: { type: 'user', id: principal.userId },
      data: contact,
    });
    return contact;
  });
}

/** A page of live contacts, oldest first (then by id), by `page` or by `cursor`; `accountId` narrows to one account's. */
export async function listContactsOf(
  db: Kysely<DB>,
  principal: Principal,
  query: ListContactsQuery,
): Promise<{ items: Contact[]; nextCursor: string | null }> {
  const account = query.accountId === undefined ? undefined : await requireAccount(db, principal.organizationId, query.accountId);
  const page = readListPage(query, query.limit ?? 10, 2);
  const rows = await listContacts(db, principal.organizationId, { accountId: account?.id, page });
  const { items, nextCursor } = keysetPage(rows, page.limit, (row) => [row.created_at, row.id]);
  return { items: await withAccounts(db, items), nextCursor };
}

export async function getContact(db: Kysely<DB>, principal: Principal, id: string | undefined): Promise<Contact> {
  return readContact(db, principal.organizationId, requireIdParam(id, 'Contact ID is required!'));
}

/** The live contact with this email (any case), or 404: how an AI agent finds the customer it talks to. */
export async function getContactByEmail(db: Kysely<DB>, principal: Principal, email: string): Promise<Contact> {
  const summary = await findLiveContactByEmail(db, principal.organizationId, email.trim());
  if (!summary) {
    throw AppError.notFound(CONTACT_NOT_FOUND);
  }
  return readContact(db, principal.organizationId, summary.id);
}

/** Changes the fields sent; `accountIds` replaces the contact's accounts; custom-field values merge. */
export async function updateContactFields(
  deps: ContactDeps,
  principal: Principal,
  id: string | undefined,
  input: UpdateContact,
): Promise<Contact> {
  const organizationId = principal.organizationId;
  const contactId = await deps.db.transaction().execute(async (trx) => {
    const contact = await requireContact(trx, organizationId, id);
    requireFirstName(input.firstName);
    const at = deps.clock.now().toISOString();
    const changes: Updateable<CustomerContactTable> = { updated_at: at };
    if (input.firstName !== undefined) {
      changes.first_name = input.firstName.trim();
    }
    if (input.email !== undefined) {
      changes.email = input.email.trim();
      await requireFreeEmail(trx, organizationId, changes.email, contact.id);
    }
    for (const [field, column] of [
      ['lastName', 'last_name'],
      ['phoneNumber', 'phone_number'],
    ] as const) {
      if (input[field] !== undefined) {
        changes[column] = input[field];
      }
    }
    if (input.avatarUrl !== undefined) {
      changes.avatar_url = webUrlField(input.avatarUrl, 'avatarUrl');
    }
    if (input.metadata !== undefined) {
      changes.metadata = writeJson(input.metadata);
    }
    if (input.contactType !== undefined) {
      const values = await loadAttributeValues(trx, deps, organizationId);
      changes.contact_type_id = resolveAttributeValue(values, 'contact_type', input.contactType, 'contactType')?.id ?? null;
    }
    if (input.customFieldValues !== undefined) {
      const incoming = await validateCustomFieldValues(trx, organizationId, 'customer_contact', input.customFieldValues, {
        onCreate: false,
      });
      const existing = readJson<CustomFieldValueEntry[]>(contact.custom_field_values) ?? [];
      changes.custom_field_values = writeJson(mergeCustomFieldValues(existing, incoming)) ?? '[]';
    }
    if (input.accountIds !== undefined) {
      const accountIds = await requireAccountIds(trx, organizationId, input.accountIds);
      await replaceContactAccounts(trx, contact, accountIds, at);
    }
    await updateContact(trx, organizationId, contact.id, changes);
    return contact.id;
  });
  return readContact(deps.db, organizationId, contactId);
}

/**
 * Soft delete: the contact leaves every read and all its accounts; tickets and comments that came
 * from it keep pointing at the stored row, so their history still names it. Its email is free again.
 */
export async function deleteContact(deps: ContactDeps, principal: Principal, id: string | undefined): Promise<void> {
  const organizationId = principal.organizationId;
  await deps.db.transaction().execute(async (trx) => {
    const contact = await requireContact(trx, organizationId, id);
    // The contact as it was, with its accounts: what a reader of `contact.deleted` last knew of it.
    const [data] = await withAccounts(trx, [contact]);
    const at = deps.clock.now().toISOString();
    await removeContactFromAccounts(trx, contact.id);
    if ((await updateContact(trx, organizationId, contact.id, { deleted_at: at, updated_at: at })) === 0) {
      throw AppError.notFound(CONTACT_NOT_FOUND);
    }
    await recordEvent(trx, deps, organizationId, {
      type: 'contact.deleted',
      actor: { type: 'user', id: principal.userId },
      data,
    });
  });
}

/** Whether `id` names a live customer contact of the organization: a ticket list's contact filter. */
export async function contactExists(db: Kysely<DB> | Transaction<DB>, organizationId: string, id: string): Promise<boolean> {
  return (await findContactById(db, organizationId, id)) !== undefined;
}
