import type { ColumnType } from 'kysely';

export type MailboxDelivery = 'smtp' | 'imap';

/** How an address was verified: an emailed link opened, its domain's DNS TXT record, or it predates verification. */
export type MailboxVerificationMethod = 'link' | 'dns' | 'existing';

/** A nullable column that inserts may leave out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** A support address of an organization; its new tickets go to `team_id`. */
export interface MailboxTable {
  id: string;
  organization_id: string;
  team_id: string;
  /**
   * Lower case; once per organization, and unique among verified mailboxes across organizations
   * (the receivers route by recipient alone).
   */
  address: string;
  display_name: string;
  delivery: MailboxDelivery;
  /** At most one per organization (a partial unique index). */
  is_default: ColumnType<boolean | number, boolean | undefined, boolean>;
  imap_host: Optional<string>;
  imap_port: Optional<number>;
  imap_tls: Optional<boolean | number>;
  imap_user: Optional<string>;
  /** Sealed with `SECRET_KEY` (`lib/secret-box.ts`), like MCP secrets; never returned. */
  imap_password_encrypted: Optional<string>;
  imap_folder: Optional<string>;
  /** Where fetched messages are moved; null: they are marked seen where they are. */
  imap_processed_folder: Optional<string>;
  /** The folder's UIDVALIDITY and the last UID taken, so a poll fetches only what is new. */
  imap_uid_validity: Optional<number>;
  imap_last_uid: Optional<number>;
  /** Lease of the process polling the mailbox now. */
  imap_locked_until: Optional<string>;
  imap_last_polled_at: Optional<string>;
  imap_last_error: Optional<string>;
  /** When the pollers may take the mailbox again; later after each failure in a row (`imap_failures`). */
  imap_next_poll_at: Optional<string>;
  imap_failures: ColumnType<number, number | undefined, number>;
  /** The admin who set it up: the recorded creator of its tickets and uploader of their attachments. */
  created_by_id: Optional<string>;
  /**
   * When the address was proved to be the organization's (`mailbox-verification.service.ts`); null:
   * unverified, so the mailbox neither receives nor sends, and its address is not Switchboard's own.
   */
  verified_at: Optional<string>;
  verification_method: Optional<MailboxVerificationMethod>;
  created_at: string;
  updated_at: string;
}
