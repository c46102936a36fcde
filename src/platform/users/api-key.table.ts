export interface ApiKeyTable {
  id: string;
  organization_id: string;
  user_id: string;
  /** The visible start of the key (`sbk_xxxxxxxx`), shown in lists and used to revoke it. */
  prefix: string;
  /** What the owner calls it ("Zapier"); null for keys issued before keys had names. */
  name: string | null;
  /** SHA-256 of the whole key, hex; the key itself is never stored. */
  key_hash: string;
  created_at: string;
  /** The last request made with it, to the minute (written at most once a minute). */
  last_used_at: string | null;
  revoked_at: string | null;
}
