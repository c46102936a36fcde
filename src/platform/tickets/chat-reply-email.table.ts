export type ChatReplyEmailStatus = 'pending' | 'emailed' | 'seen' | 'no_address' | 'gone';

/** A person's reply on a chat ticket, emailed if the visitor is away when it is due: see the 1310 migration. */
export interface ChatReplyEmailTable {
  comment_id: string;
  organization_id: string;
  ticket_id: string;
  status: ChatReplyEmailStatus;
  due_at: string;
  decided_at: string | null;
}
