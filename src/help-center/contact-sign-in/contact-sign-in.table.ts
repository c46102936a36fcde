/** An emailed sign-in link of a help center: the token's SHA-256 only; usable once, until `expires_at`. */
export interface HelpCenterSignInLinkTable {
  token_hash: string;
  organization_id: string;
  help_center_id: string;
  contact_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A customer contact signed in to one help center: the cookie carries a random token, this row its SHA-256. */
export interface HelpCenterContactSessionTable {
  token_hash: string;
  organization_id: string;
  help_center_id: string;
  contact_id: string;
  created_at: string;
  /** Updated at most once an hour per session, so reading pages rarely writes. */
  last_seen_at: string;
  /** 30 days after sign-in, however active the session. */
  expires_at: string;
  /** Set by signing out. */
  ended_at: string | null;
}
