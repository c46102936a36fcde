import type { ColumnType } from 'kysely';

/**
 * `pending` (due), `posting` (a worker holds it), `retrying` (a failed attempt, due again at
 * `next_attempt_at`: rate limited, or Slack unreachable), `posted`, `failed` (given up: Slack
 * refused it, or every attempt failed).
 */
export const SLACK_POST_STATUSES = ['pending', 'posting', 'retrying', 'posted', 'failed'] as const;
export type SlackPostStatus = (typeof SLACK_POST_STATUSES)[number];

/** A nullable column that inserts may leave out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** An agent's public reply on its way to the Slack thread of the ticket it answers: one per comment. */
export interface SlackPostTable {
  id: string;
  organization_id: string;
  ticket_id: string;
  /** The comment it posts; unique, so a comment is posted at most once. */
  comment_id: string;
  channel_id: string;
  thread_ts: string;
  /** The comment's text (plain or Markdown) as written; made Slack mrkdwn when posted. */
  text: string;
  /** Shown as the sender (`chat:write.customize`): the agent's name and picture. */
  username: Optional<string>;
  icon_url: Optional<string>;
  status: SlackPostStatus;
  /** Attempts started; counted when a worker claims the post. */
  attempts: ColumnType<number, number | undefined, number>;
  /** When a pending or retrying post is due; null once posted or failed. */
  next_attempt_at: string | null;
  /** Lease of the worker posting it. */
  locked_until: Optional<string>;
  last_error: Optional<string>;
  /** The message's `ts` in Slack, once posted. */
  posted_ts: Optional<string>;
  posted_at: Optional<string>;
  created_at: string;
  updated_at: string;
}
