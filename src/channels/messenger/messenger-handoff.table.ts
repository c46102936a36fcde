/** A messenger conversation handed to a person: see the 1300 migration. */
export interface MessengerHandoffTable {
  /** The visitor's conversation (an agent-studio chat thread); one handoff each. */
  thread_id: string;
  organization_id: string;
  help_center_id: string;
  visitor_id: string;
  /** The chat ticket the conversation became. */
  ticket_id: string;
  requested_by: 'visitor' | 'assistant';
  /** Why the assistant handed over (`handoff_to_human`'s reason); null when the visitor asked. */
  reason: string | null;
  /** Where a person's replies go while the visitor is away: the verified contact's, or one the visitor left. */
  email: string | null;
  created_at: string;
  updated_at: string;
}
