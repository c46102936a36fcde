export type ChatRole = 'user' | 'assistant' | 'system' | 'tool';

export interface ChatThreadTable {
  id: string;
  organization_id: string;
  agent_id: string;
  /** The user who owns the thread; null for a messenger visitor's thread. */
  user_id: string | null;
  /** The messenger visitor who owns the thread (their visitor id); null for a user's thread. */
  anon_user_id: string | null;
  /** The customer contact a verified visitor is: their threads follow them to any browser. */
  contact_id: string | null;
  /** The help center whose messenger a visitor's thread came from: what its agent may cite. */
  help_center_id: string | null;
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
