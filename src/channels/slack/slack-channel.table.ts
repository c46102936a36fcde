import type { ColumnType } from 'kysely';

/** A nullable column that inserts may leave out. */
type Optional<T> = ColumnType<T | null, T | null | undefined, T | null>;

/**
 * What a channel the bot is in is for: `customer` (a customer asks there, often a Slack Connect
 * channel shared with their company: its requests become tickets), `triage` (internal: new tickets
 * are posted there for the team to pick up) or `ignored` (nothing is read there; where every
 * channel starts until an admin says otherwise).
 */
export const SLACK_CHANNEL_KINDS = ['customer', 'triage', 'ignored'] as const;
export type SlackChannelKind = (typeof SLACK_CHANNEL_KINDS)[number];

/**
 * How a customer channel tells a request from chatter: `all` (every candidate is a request),
 * `rules` (keywords, question form, mentions of the bot, excluded patterns) or `ai` (the
 * organization's model provider classifies; the rules decide when no provider answers).
 */
export const SLACK_DETECTION_MODES = ['all', 'rules', 'ai'] as const;
export type SlackDetectionMode = (typeof SLACK_DETECTION_MODES)[number];

export const SLACK_CHANNEL_STATUSES = ['connected', 'disconnected'] as const;
export type SlackChannelStatus = (typeof SLACK_CHANNEL_STATUSES)[number];

/**
 * An organization's settings for one Slack channel of its workspace, kept from the first time an
 * admin (or an event) names it. The channels the bot is in come from Slack; this row holds what
 * Switchboard does there.
 */
export interface SlackChannelTable {
  id: string;
  organization_id: string;
  /** Slack's conversation id (`C…`, `G…`), unique within the organization's one workspace. */
  channel_id: string;
  /** Its name when last read from Slack, without `#`. */
  name: string;
  kind: ColumnType<SlackChannelKind, SlackChannelKind | undefined, SlackChannelKind>;
  /** A customer channel's account: its requesters' contacts join it, its tickets carry it. */
  account_id: Optional<string>;
  /** The Switchboard team that gets the channel's tickets (a triage channel: whose tickets it shows). */
  team_id: Optional<string>;
  detection_mode: ColumnType<SlackDetectionMode, SlackDetectionMode | undefined, SlackDetectionMode>;
  /** Messages of one person within this many seconds of their last are one request (default 120). */
  group_window_seconds: ColumnType<number, number | undefined, number>;
  /**
   * The `rules` mode's settings as JSON (`{keywords, excludedPatterns, questions, botMentions}`);
   * null: the defaults of `slack-detection-rules.ts`.
   */
  detection_rules: Optional<string>;
  status: ColumnType<SlackChannelStatus, SlackChannelStatus | undefined, SlackChannelStatus>;
  /** Why Slack refused the bot there (`not_in_channel`, `channel_not_found`, `is_archived`), when disconnected. */
  disconnected_reason: Optional<string>;
  created_at: string;
  updated_at: string;
}

/**
 * One request detection decision: a customer's top-level message (with the messages of the same
 * person grouped into it) and whether it is a request, why, and by which mode, with the ticket made
 * of it. An admin marks decisions `right` or `wrong`; the detection report counts the marks.
 */
export interface SlackRequestTable {
  id: string;
  organization_id: string;
  channel_id: string;
  /** The customer's Slack user (`U…`). */
  slack_user_id: string;
  /** The first message of the group (`ts`): the thread a ticket of it lives in. */
  first_ts: string;
  /** The latest message grouped into it. */
  last_ts: string;
  /** The group's text, messages joined by new lines, as the decision read it. */
  text: string;
  /** `all`, `rules`, `ai`, or `reaction` (someone added 🎫). */
  mode: string;
  /** 1 when it was judged a request (SQLite has no booleans). */
  is_request: ColumnType<number, number, number>;
  /** Why, in words: "question mark and keyword 'broken'", or the model's one-line reason. */
  reason: string;
  ticket_id: Optional<string>;
  /** Until when a further message of the same person joins this group. */
  grouping_until: string;
  /** An admin's verdict on the decision. */
  mark: Optional<'right' | 'wrong'>;
  marked_by: Optional<string>;
  marked_at: Optional<string>;
  created_at: string;
  updated_at: string;
}

/**
 * A ticket made from Slack: its channel and the thread it lives in (the first message's `ts`), and
 * its post in a triage channel, updated in place as the ticket changes.
 */
export interface SlackTicketThreadTable {
  ticket_id: string;
  organization_id: string;
  channel_id: string;
  thread_ts: string;
  /** The triage channel it was posted in, and that message's `ts`. */
  triage_channel_id: Optional<string>;
  triage_ts: Optional<string>;
  created_at: string;
}

/**
 * A Slack message that is part of a ticket, both ways: a customer's message filed as a ticket or a
 * comment, or an agent's reply posted from Switchboard. Edits and deletions in Slack find the
 * comment by it; reactions find the ticket by it.
 */
export interface SlackMessageLinkTable {
  id: string;
  organization_id: string;
  channel_id: string;
  message_ts: string;
  ticket_id: string;
  /** The comment it is (null for a message grouped into the ticket's description, or a triage post). */
  comment_id: Optional<string>;
  /** `inbound` (a customer's), `outbound` (an agent's reply posted by the bot) or `triage`. */
  direction: string;
  created_at: string;
}
