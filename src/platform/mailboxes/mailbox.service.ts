import type { Kysely, Transaction, Updateable } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import { conflictAs } from '../../db/errors.js';
import { inTransaction } from '../../db/transaction.js';
import { parseReplyAddress } from '../../delivery/outbound/reply-address.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage, readListPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import { parseOutboundPolicy } from '../../lib/guarded-fetch.js';
import type { IdFactory } from '../../lib/ids.js';
import { imapHostProblem } from '../../lib/imap-target.js';
import type { Principal } from '../../lib/principal.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { requireOrgAdmin } from '../authorization.js';
import { requireTeam } from '../teams/team.lookup.js';
import { toMailbox } from './mailbox.presenter.js';
import {
  clearDefaultMailbox,
  deleteMailbox,
  findAddressClaims,
  findMailboxById,
  insertMailbox,
  listMailboxes,
  lockMailbox,
  type MailboxRow,
  updateMailbox,
} from './mailbox.repository.js';
import type { CreateMailbox, ListMailboxesQuery, UpdateMailbox } from './mailbox.schemas.js';
import type { MailboxTable } from './mailbox.table.js';
import { expireOpenVerificationLinks } from './mailbox-verification.repository.js';
import { beginVerification, loadVerificationContext, verificationOf } from './mailbox-verification.service.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  config: Config;
  secretKey: Buffer;
}

const NOT_FOUND = 'Mailbox not found!';
const ADDRESS_TAKEN = 'A mailbox with this address already exists!';

/** How the sealed IMAP password is bound to its row and column (a copied ciphertext does not open elsewhere). */
export function imapPasswordAad(mailboxId: string): string {
  return `mailbox|${mailboxId}|imap_password`;
}

/** Rows as the API shows them, each with its verification. */
async function toMailboxes(db: Kysely<DB> | Transaction<DB>, organizationId: string, rows: readonly MailboxRow[]) {
  const context = await loadVerificationContext(db, organizationId, rows);
  return rows.map((row) => toMailbox(row, verificationOf(row, context)));
}

export type Mailbox = ReturnType<typeof toMailbox>;

const invalid = (message: string, path: string[], rule: string) => AppError.invalid(message, { location: 'body', path, rule });

/** Lower case, and never the shape of a ticket's reply address (`support+bill-1.<signature>@…`), which routes to a ticket. */
function normalizeAddress(address: string): string {
  const normalized = address.trim().toLowerCase();
  if (parseReplyAddress(normalized)) {
    throw invalid(
      'address must not have the form of a ticket reply address (local+team-1.signature@domain)',
      ['address'],
      'format',
    );
  }
  return normalized;
}

function displayNameOf(displayName: string): string {
  const trimmed = displayName.trim();
  if (trimmed === '') {
    throw invalid('displayName must not be blank', ['displayName'], 'minLength');
  }
  return trimmed;
}

/**
 * An address the organization may claim: not one of its other mailboxes', and not verified by
 * another organization. Other organizations' unverified claims do not count: the address goes to
 * whoever proves it first.
 */
async function requireClaimableAddress(
  db: Kysely<DB> | Transaction<DB>,
  organizationId: string,
  address: string,
  mailboxId?: string,
): Promise<void> {
  const claims = await findAddressClaims(db, address);
  const taken = claims.some(
    (claim) => claim.id !== mailboxId && (claim.organization_id === organizationId || claim.verified_at !== null),
  );
  if (taken) {
    throw AppError.conflict(ADDRESS_TAKEN);
  }
}

/**
 * What an IMAP mailbox made without its password says until one is sent: a configuration import
 * creates mailboxes from a document that never holds passwords.
 */
export const IMAP_PASSWORD_NEEDED = 'The IMAP password is not set: send imap.password (PATCH /v1/mailboxes/{id})';

/** `passwordMayFollow`: settings without a password are taken, and the mailbox waits for one (a configuration import). */
export interface MailboxWriteOptions {
  passwordMayFollow?: boolean;
}

/** IMAP settings as sent: the password is left out of an update that keeps it, and of an import. */
export interface ImapSettings {
  host?: string;
  port?: number;
  tls?: boolean;
  username?: string;
  password?: string;
  folder?: string;
  processedFolder?: string | null;
}

/**
 * The IMAP columns for settings merged over the stored ones; a host outside the outbound policy,
 * or a folder moved into itself, is a 400. A new host or user needs the password again, so a
 * stored password is never sent to a server it was not entered for: with `passwordMayFollow`, the
 * stored one is dropped instead, and the mailbox waits for a new one.
 */
function imapColumns(
  deps: Deps,
  mailboxId: string,
  stored: Pick<MailboxRow, 'imap_host' | 'imap_port' | 'imap_tls' | 'imap_user' | 'imap_folder' | 'imap_processed_folder'> & {
    imap_password_encrypted: string | null;
  },
  given: ImapSettings,
  options: MailboxWriteOptions,
): Updateable<MailboxTable> {
  const host = given.host ?? stored.imap_host;
  const username = given.username ?? stored.imap_user;
  if (!host || !username) {
    throw invalid('imap.host and imap.username are required for delivery imap', ['imap'], 'required');
  }
  const moved =
    (given.host !== undefined && given.host !== stored.imap_host) ||
    (given.username !== undefined && given.username !== stored.imap_user);
  const passwordMissing = given.password === undefined && (moved || !stored.imap_password_encrypted);
  if (passwordMissing && !options.passwordMayFollow) {
    throw invalid('imap.password is required for a new IMAP host or username', ['imap', 'password'], 'required');
  }
  const tls = given.tls ?? (stored.imap_tls === null ? true : readBoolean(stored.imap_tls));
  const port =
    given.port ?? (given.tls !== undefined || stored.imap_port === null ? (tls ? 993 : 143) : Number(stored.imap_port));
  const problem = imapHostProblem(host, port, parseOutboundPolicy(deps.config.OUTBOUND_ALLOWED_HOSTS), 'imap.host');
  if (problem) {
    throw invalid(problem, ['imap', 'host'], 'outbound');
  }
  const folder = given.folder ?? stored.imap_folder ?? 'INBOX';
  const processedFolder = given.processedFolder === undefined ? stored.imap_processed_folder : given.processedFolder;
  if (processedFolder !== null && processedFolder === folder) {
    throw invalid('imap.processedFolder must differ from imap.folder', ['imap', 'processedFolder'], 'distinct');
  }
  const columns: Updateable<MailboxTable> = {
    imap_host: host,
    imap_port: port,
    imap_tls: tls,
    imap_user: username,
    imap_folder: folder,
    imap_processed_folder: processedFolder,
    // Polled soon with the new settings, its error history forgotten.
    imap_next_poll_at: null,
    imap_last_error: null,
    imap_failures: 0,
  };
  if (passwordMissing) {
    Object.assign(columns, { imap_password_encrypted: null, imap_last_error: IMAP_PASSWORD_NEEDED });
  }
  if (given.password !== undefined) {
    columns.imap_password_encrypted = createSecretBox(deps.secretKey).seal(given.password, imapPasswordAad(mailboxId));
  }
  if (host !== stored.imap_host || username !== stored.imap_user || folder !== stored.imap_folder) {
    // Another folder: its UIDs are not the ones the cursor counted.
    columns.imap_uid_validity = null;
    columns.imap_last_uid = null;
  }
  return columns;
}

const NO_IMAP: Updateable<MailboxTable> = {
  imap_host: null,
  imap_port: null,
  imap_tls: null,
  imap_user: null,
  imap_password_encrypted: null,
  imap_folder: null,
  imap_processed_folder: null,
  imap_uid_validity: null,
  imap_last_uid: null,
  imap_locked_until: null,
  imap_last_polled_at: null,
  imap_next_poll_at: null,
  imap_last_error: null,
  imap_failures: 0,
};

const EMPTY_IMAP = {
  imap_host: null,
  imap_port: null,
  imap_tls: null,
  imap_user: null,
  imap_password_encrypted: null,
  imap_folder: null,
  imap_processed_folder: null,
};

/** The IMAP columns for a mailbox's delivery: settings only with imap, which needs them. */
function deliveryColumns(
  deps: Deps,
  mailboxId: string,
  delivery: 'smtp' | 'imap',
  stored: Parameters<typeof imapColumns>[2],
  given: ImapSettings | undefined,
  options: MailboxWriteOptions,
): Updateable<MailboxTable> {
  if (delivery === 'smtp') {
    if (given !== undefined) {
      throw invalid('imap settings are only for delivery imap', ['imap'], 'delivery');
    }
    return NO_IMAP;
  }
  if (given === undefined && stored.imap_host === null) {
    throw invalid('imap settings are required for delivery imap', ['imap'], 'required');
  }
  return given === undefined ? {} : imapColumns(deps, mailboxId, stored, given, options);
}

/**
 * Creates a mailbox, unverified until its address is proved (a link is emailed to it); organization
 * admins only. `deps.db` may be a transaction of the caller's, which the change then joins.
 */
export async function createMailbox(
  deps: Deps,
  principal: Principal,
  input: Omit<CreateMailbox, 'imap'> & { imap?: ImapSettings },
  options: MailboxWriteOptions = {},
): Promise<Mailbox> {
  requireOrgAdmin(principal);
  const address = normalizeAddress(input.address);
  const displayName = displayNameOf(input.displayName);
  const id = deps.ids.ulid();
  const imap = deliveryColumns(deps, id, input.delivery, EMPTY_IMAP, input.imap, options);
  await inTransaction(deps.db, async (trx) => {
    const team = await requireTeam(trx, principal.organizationId, input.teamId);
    await requireClaimableAddress(trx, principal.organizationId, address);
    const at = deps.clock.now().toISOString();
    if (input.isDefault) {
      await clearDefaultMailbox(trx, principal.organizationId, id, at);
    }
    await insertMailbox(trx, {
      id,
      organization_id: principal.organizationId,
      team_id: team.id,
      address,
      display_name: displayName,
      delivery: input.delivery,
      is_default: input.isDefault ?? false,
      ...imap,
      imap_failures: 0,
      created_by_id: principal.userId,
      verified_at: null,
      verification_method: null,
      created_at: at,
      updated_at: at,
    }).catch(conflictAs(ADDRESS_TAKEN));
    await beginVerification(trx, deps, { id, organization_id: principal.organizationId, address }, principal.userId);
  });
  return requireMailbox(deps.db, principal.organizationId, id);
}

async function requireMailbox(db: Kysely<DB> | Transaction<DB>, organizationId: string, id: string): Promise<Mailbox> {
  const row = await findMailboxById(db, organizationId, id);
  if (!row) {
    throw AppError.notFound(NOT_FOUND);
  }
  const [mailbox] = await toMailboxes(db, organizationId, [row]);
  if (!mailbox) {
    throw AppError.notFound(NOT_FOUND);
  }
  return mailbox;
}

/** Any user of the organization may read its mailboxes (never their passwords). */
export async function getMailbox(db: Kysely<DB>, principal: Principal, id: string): Promise<Mailbox> {
  return requireMailbox(db, principal.organizationId, id);
}

/** A page of the organization's mailboxes by address, by `page` or `cursor`. */
export async function listMailboxesOf(db: Kysely<DB>, principal: Principal, query: ListMailboxesQuery) {
  const page = readListPage(query, query.limit ?? 20, 2);
  const rows = await listMailboxes(db, principal.organizationId, page);
  const { items, nextCursor } = keysetPage(rows, page.limit, (row) => [row.address, row.id]);
  return { items: await toMailboxes(db, principal.organizationId, items), nextCursor };
}

/** Changes the fields sent; organization admins only. `deps.db` may be a transaction of the caller's. */
export async function updateMailboxFields(
  deps: Deps,
  principal: Principal,
  id: string,
  input: UpdateMailbox,
  options: MailboxWriteOptions = {},
): Promise<Mailbox> {
  requireOrgAdmin(principal);
  await inTransaction(deps.db, async (trx) => {
    const mailbox = await lockMailbox(trx, principal.organizationId, id);
    if (!mailbox) {
      throw AppError.notFound(NOT_FOUND);
    }
    const at = deps.clock.now().toISOString();
    const delivery = input.delivery ?? mailbox.delivery;
    const changes: Updateable<MailboxTable> = {
      updated_at: at,
      ...deliveryColumns(deps, mailbox.id, delivery, mailbox, input.imap, options),
      delivery,
    };
    const address = input.address === undefined ? undefined : normalizeAddress(input.address);
    const readdressed = address !== undefined && address !== mailbox.address;
    if (readdressed) {
      // A new address is proved anew: until then the mailbox neither receives nor sends.
      await requireClaimableAddress(trx, principal.organizationId, address, mailbox.id);
      Object.assign(changes, { address, verified_at: null, verification_method: null });
      await expireOpenVerificationLinks(trx, mailbox.id, at);
    }
    if (input.teamId !== undefined) {
      changes.team_id = (await requireTeam(trx, principal.organizationId, input.teamId)).id;
    }
    if (input.displayName !== undefined) {
      changes.display_name = displayNameOf(input.displayName);
    }
    if (input.isDefault === true) {
      await clearDefaultMailbox(trx, principal.organizationId, mailbox.id, at);
    }
    if (input.isDefault !== undefined) {
      changes.is_default = input.isDefault;
    }
    await updateMailbox(trx, principal.organizationId, mailbox.id, changes).catch(conflictAs(ADDRESS_TAKEN));
    if (readdressed) {
      await beginVerification(trx, deps, { ...mailbox, address }, principal.userId);
    }
  });
  return requireMailbox(deps.db, principal.organizationId, id);
}

/** Deletes the mailbox; its tickets and stored messages stay. Organization admins only. */
export async function removeMailbox(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<Mailbox> {
  requireOrgAdmin(principal);
  const mailbox = await requireMailbox(deps.db, principal.organizationId, id);
  if ((await deleteMailbox(deps.db, principal.organizationId, id)) === 0) {
    throw AppError.notFound(NOT_FOUND);
  }
  return mailbox;
}
