/** `rejected`: a person rejected the tool calls it paused for, which ends it: the model is not asked again. */
export type AgentRunStatus = 'queued' | 'running' | 'awaiting_approval' | 'succeeded' | 'failed' | 'rejected';
/** What started a run: a user's chat message, a ticket's customer, or a messenger visitor's message. */
export type AgentRunTrigger = 'chat' | 'ticket' | 'messenger';
/** Whom a run acts for: a user of the organization, the customer contact whose words started it, or a messenger visitor. */
export type AgentRunPrincipalType = 'user' | 'customer_contact' | 'visitor';

export interface AgentRunTable {
  id: string;
  organization_id: string;
  agent_id: string;
  /** The chat thread of a chat run; runs of one thread take turns. */
  thread_id: string | null;
  ticket_id: string | null;
  /**
   * The user whose account the platform's calls go through (the chatting user, or the agent's
   * creator for runs on tickets); what tools see is narrowed further by the principal.
   */
  acting_user_id: string;
  principal_type: AgentRunPrincipalType;
  /** The user's id, the customer contact's (null for a requester with no contact), or the visitor's. */
  principal_id: string | null;
  /** Why a ticket run's answer went to a person instead of the customer. */
  handoff_reason: string | null;
  /** Tokens of the agent's monthly budget this run holds while it executes (released when it settles). */
  reserved_tokens: number;
  /** The month (its first instant) whose budget `reserved_tokens` is held from. */
  reserved_period: string | null;
  trigger: AgentRunTrigger;
  /** ULID: the order of runs, and of a thread's queue. */
  sort_key: string;
  status: AgentRunStatus;
  input: string;
  user_message_id: string | null;
  /** The assistant message the run wrote: its answer, its approval request or its failure. */
  result_message_id: string | null;
  model_provider_id: string | null;
  model: string | null;
  steps: number;
  input_tokens: number;
  output_tokens: number;
  cost: number | null;
  latency_ms: number | null;
  error: string | null;
  final_text: string | null;
  /** JSON array of the run's tool calls, in the chat message's `tool_calls` shape. */
  tool_calls: string | null;
  /** JSON `{approval_id, tool_call_id, tool_name, arguments}` while awaiting approval. */
  pending_approval: string | null;
  /** JSON model messages of a paused run, to continue it from after an approval. */
  conversation: string | null;
  /** The process executing (or waiting to execute) the run, and until when it vouches for it. */
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}
