import type { ColumnType } from 'kysely';

/** A nullable column that inserts may leave out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

export const SLACK_INSTALLATION_STATUSES = ['active', 'revoked'] as const;
export type SlackInstallationStatus = (typeof SLACK_INSTALLATION_STATUSES)[number];

/**
 * The Slack app installed in one workspace for one organization (OAuth v2). A workspace belongs
 * to one organization at a time (unique `team_id`), and an organization has one workspace.
 */
export interface SlackInstallationTable {
  id: string;
  organization_id: string;
  /** Slack's workspace (`T…`); events name it as `team_id`. */
  team_id: string;
  team_name: string;
  /** Set for an Enterprise Grid organization's workspace. */
  enterprise_id: Optional<string>;
  app_id: string;
  /** The bot's user (`U…`): its own messages are never requests. */
  bot_user_id: string;
  /** `xoxb-…` sealed with `SECRET_KEY` (AAD `slack_installation|<organization_id>|bot_token`). */
  bot_token_encrypted: string;
  /** The scopes Slack granted, comma-separated as `oauth.v2.access` answers them. */
  scopes: string;
  /** The admin who installed it (or last reinstalled it). */
  installed_by: string;
  status: SlackInstallationStatus;
  /** Why it stopped (`token_revoked`, `app_uninstalled`, `invalid_auth`), when revoked. */
  revoked_reason: Optional<string>;
  created_at: string;
  updated_at: string;
}

export const SLACK_EVENT_STATUSES = ['pending', 'processing', 'done', 'failed'] as const;
export type SlackEventStatus = (typeof SLACK_EVENT_STATUSES)[number];

/**
 * An Events API delivery Slack sent, kept once by its `event_id` (Slack sends the same event again
 * when it hears no answer in 3 seconds, with `X-Slack-Retry-Num`), for the Slack worker to act on
 * after the answer.
 */
export interface SlackEventTable {
  /** Slack's `event_id` (`Ev…`), unique across its retries. */
  event_id: string;
  organization_id: string;
  team_id: string;
  /** `event.type` (`message`, `reaction_added`, …). */
  event_type: string;
  /** The conversation it happened in, when it has one (`C…`): events of one channel are handled in order. */
  channel_id: Optional<string>;
  /** The envelope as Slack sent it (JSON). */
  payload: string;
  /** Slack's `event_time` (seconds), as an instant. */
  event_time: string;
  status: SlackEventStatus;
  attempts: ColumnType<number, number | undefined, number>;
  locked_until: Optional<string>;
  /** When a failed attempt may be retried. */
  next_attempt_at: Optional<string>;
  last_error: Optional<string>;
  received_at: string;
  processed_at: Optional<string>;
}
