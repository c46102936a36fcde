import type { ColumnType } from 'kysely';

/** AI tokens a help center's messenger spent in one day (UTC): see the 0810 migration. */
export interface MessengerTokenUsageTable {
  help_center_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  organization_id: string;
  /** bigint: PostgreSQL answers it as a string. */
  used_tokens: ColumnType<number | string, number, number>;
  updated_at: string;
}
