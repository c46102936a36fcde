import type { ColumnType } from 'kysely';

/**
 * Where the triage poster is in an organization's event log: every event up to `posted_seq` has
 * been posted or updated in the triage channels. A pass holds the row under a lease
 * (`locked_until`), so one process at a time posts an organization's tickets, in order.
 */
export interface SlackTriageCursorTable {
  organization_id: string;
  posted_seq: ColumnType<number | string, number | undefined, number>;
  locked_until: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: string;
}
