import type { Generated } from 'kysely';
/**
 * The source of a messenger conversation handed to a person: its public replies reach the visitor
 * through the messenger (`channels/messenger/`), not as emails to the requestor.
 */
export const CHAT_SOURCE = 'chat';

export type TicketOptionKind = 'status' | 'priority' | 'type';

/** A status, priority or type a team's tickets can take. */
export interface TicketOptionTable {
  id: string;
  organization_id: string;
  team_id: string;
  kind: TicketOptionKind;
  name: string;
  display_name: string;
  description: string | null;
  color: string | null;
  is_default: boolean | number;
  /** Statuses only: a ticket in this status counts as closed. */
  is_closed: boolean | number;
  /** Statuses only: SLA clocks stop while a ticket is in this status. */
  pauses_sla: Generated<boolean | number>;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface TeamTicketCounterTable {
  team_id: string;
  last_number: number;
}

export interface TicketTable {
  id: string;
  organization_id: string;
  team_id: string;
  ticket_number: number;
  ticket_identifier: string;
  title: string;
  description: string | null;
  source: string | null;
  account_id: string | null;
  status_id: string;
  priority_id: string;
  type_id: string | null;
  is_private: boolean | number;
  assigned_agent_id: string | null;
  requestor_email: string;
  customer_contact_id: string | null;
  submitter_email: string | null;
  metadata: string | null;
  custom_field_values: string;
  due_date: string | null;
  created_by_id: string;
  assigned_at: string | null;
  /** Set while routing left the ticket without an agent; the waiting-tickets worker assigns these oldest first. */
  awaiting_assignment_since: string | null;
  closed_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export type CommentVisibility = 'public' | 'private';
export type CommentType = 'comment' | 'note' | 'reply';

export interface TicketCommentTable {
  id: string;
  organization_id: string;
  ticket_id: string;
  parent_comment_id: string | null;
  content: string;
  content_html: string;
  content_markdown: string;
  content_json: string | null;
  thread_name: string | null;
  comment_visibility: CommentVisibility;
  comment_type: CommentType;
  is_edited: boolean | number;
  is_pinned: boolean | number;
  source_email_id: string | null;
  metadata: string | null;
  author_id: string | null;
  /**
   * Set on a comment an AI agent wrote (the agent studio's agent id): the comment is the agent's,
   * and `author_id` is the user whose permissions it acted with.
   */
  author_agent_id: string | null;
  customer_contact_id: string | null;
  impersonated_user_email: string | null;
  impersonated_user_name: string | null;
  impersonated_user_avatar: string | null;
  /** JSON array of attachment ids. */
  attachment_ids: string;
  dedupe_key: string | null;
  /** SHA-256 of the request that used `dedupe_key`, to tell a replay from a different body. */
  dedupe_fingerprint: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
