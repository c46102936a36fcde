/** A messenger visitor: one per visitor token, scoped to one help center (see the 0710 migration). */
export interface MessengerVisitorTable {
  id: string;
  organization_id: string;
  help_center_id: string;
  /** SHA-256 of the visitor token (`lib/secret-token.ts`); the token itself is never stored. */
  token_hash: string;
  /** The customer contact a verified visitor was linked to; null while anonymous. */
  contact_id: string | null;
  /** The host's own id for a verified visitor (the identity token's `sub`). */
  external_subject: string | null;
  created_at: string;
  last_seen_at: string;
}
