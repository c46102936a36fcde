export type ChatRole = 'user' | 'assistant' | 'system' | 'tool';

export interface ChatThreadTable {
  id: string;
  organization_id: string;
  agent_id: string;
  user_id: string;
  title: string | null;
  metadata: string | null;
  /** Bumped by every new message; chat history is ordered by it. */
  last_activity_at: string;
  created_at: string;
  updated_at: string;
}

export interface ChatMessageTable {
  id: string;
  organization_id: string;
  thread_id: string;
  sort_key: string;
  role: ChatRole;
  content: string;
  content_html: string | null;
  tool_calls: string | null;
  attachments: string | null;
  metadata: string | null;
  created_at: string;
}
