import type { TicketAgentMode } from './ticket-agent.modes.js';

/** How far in an organization's event log new tickets and customer replies have become jobs. */
export interface TicketAgentCursorTable {
  organization_id: string;
  dispatched_seq: number | string;
  updated_at: string;
}

/** `awaiting_approval`: the job's run paused for a person's decision; the job is worked again once the run ends. */
export type TicketAgentJobStatus = 'pending' | 'running' | 'awaiting_approval' | 'done' | 'failed';

/** One event a team's agent answers: a new ticket or a customer's reply. */
export interface TicketAgentJobTable {
  id: string;
  organization_id: string;
  event_seq: number | string;
  event_type: string;
  ticket_id: string;
  team_id: string;
  agent_id: string;
  /** The team's mode when the event was dispatched. */
  mode: Exclude<TicketAgentMode, 'off'>;
  status: TicketAgentJobStatus;
  attempts: number;
  /** While running: the lease of the process working it, renewed as it works; a crashed process's job is taken again after it. */
  locked_until: string | null;
  run_id: string | null;
  /** JSON: what the agent did (`drafted`, `replied`, `handed_off`) and the comment it wrote. */
  outcome: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}
