import type { ColumnType, Generated } from 'kysely';
import type { UserType } from '../../lib/principal.js';

export type { UserType };
export type UserStatus = 'online' | 'away' | 'offline';

/** A nullable column that inserts may leave out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface UserTable {
  id: string;
  organization_id: string;
  name: string;
  email: string;
  user_type: UserType;
  avatar_url: string | null;
  /** Availability for routing. */
  status: Generated<UserStatus>;
  /** Most open tickets at once; null means no limit. */
  capacity: Optional<number>;
  /** IANA zone of the user's own hours; null means the team's. */
  timezone: Optional<string>;
  last_assigned_at: Optional<string>;
  /** Breaks ties in `last_assigned_at` between routed assignments made in the same millisecond. */
  last_assignment_seq: Optional<number>;
  /** scrypt hash naming its parameters (see `auth/password.ts`); null until an invitation is accepted. Never read back into an answer. */
  password_hash: Optional<string>;
  password_changed_at: Optional<string>;
  /** Set while an admin has disabled the user: no sign-in, no session, no API key. */
  disabled_at: Optional<string>;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
