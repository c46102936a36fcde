/**
 * A link emailed to a mailbox's address: its token stored as its SHA-256, usable once, until
 * `expires_at`, and only for the address it was sent to. Kept when the mailbox is deleted
 * (`mailbox_id` null, opening nothing), so links sent to an address are counted until they expire.
 */
export interface MailboxVerificationLinkTable {
  id: string;
  organization_id: string;
  mailbox_id: string | null;
  address: string;
  token_hash: string;
  /** The admin who asked for it; null when the mailbox's creation sent it on behalf of a removed user. */
  created_by_id: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/**
 * An organization's claim of a domain: the token a TXT record `_switchboard.<domain>` publishes as
 * `switchboard-verification=<token>`; once found, every mailbox of the organization on the domain is verified.
 */
export interface MailboxDomainTable {
  organization_id: string;
  domain: string;
  token: string;
  verified_at: string | null;
  created_at: string;
}
