/** Whether a chat ticket's visitor has a messenger panel open, and is typing: see the 1300 migration. */
export interface ChatTicketVisitorTable {
  ticket_id: string;
  organization_id: string;
  /** Set when a panel reports in after the visitor was away; cleared by the sweep once they go quiet. */
  online: boolean | number;
  /** The last time a panel of the visitor had the conversation open (its stream's heartbeat). */
  last_seen_at: string;
  /** The last time the visitor was typing (at most one report every few seconds). */
  typing_at: string | null;
}
