/** A signed-in browser: the cookie carries a random token, this row only its SHA-256. */
export interface UserSessionTable {
  id: string;
  organization_id: string;
  user_id: string;
  token_hash: string;
  created_at: string;
  /** Updated at most once a minute per session; the session ends 12 hours after it. */
  last_seen_at: string;
  /** The absolute end: 30 days after sign-in, however active the session. */
  expires_at: string;
  user_agent: string | null;
  /** The address the session signed in from. */
  ip_address: string | null;
}

export type AuthTokenPurpose = 'invitation' | 'password_reset';

/** The token of an invitation or password-reset link, stored as its SHA-256; usable once, until `expires_at`. */
export interface UserAuthTokenTable {
  id: string;
  organization_id: string;
  user_id: string;
  purpose: AuthTokenPurpose;
  token_hash: string;
  /** The admin who sent an invitation; null for resets and for links printed by the CLI. */
  created_by_user_id: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
