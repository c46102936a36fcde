/** Whether an agent's answer helped, as the one who asked says: see the 0820 migration. */
export interface ChatMessageFeedbackTable {
  message_id: string;
  organization_id: string;
  thread_id: string;
  feedback_type: 'positive' | 'negative';
  created_at: string;
  updated_at: string;
}
