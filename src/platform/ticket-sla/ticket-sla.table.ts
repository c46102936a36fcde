import type { SlaMetric } from '../../shared/sla.js';

/** `idle`: a next-reply or periodic-update target the policy sets that has not started (not shown). */
export type SlaTargetStatus = 'idle' | 'active' | 'paused' | 'met' | 'breached';
export type SlaEventKind = 'start' | 'pause' | 'resume' | 'met' | 'breach' | 'policy_change' | 'recalculated' | 'warning';

/** The running (or last) instance of one SLA metric of a ticket. */
export interface TicketSlaTargetTable {
  id: string;
  organization_id: string;
  ticket_id: string;
  policy_id: string;
  metric: SlaMetric;
  status: SlaTargetStatus;
  target_minutes: number;
  business_hours: boolean | number;
  ai_replies_count: boolean | number;
  warning_share: number;
  started_at: string;
  /** Null while paused, met, or stopped. */
  due_at: string | null;
  /** Business minutes consumed before `running_since`. */
  consumed_minutes: number;
  /** When the clock last started running; null while it is stopped. */
  running_since: string | null;
  met_at: string | null;
  breached_at: string | null;
  warn_at: string | null;
  warned_at: string | null;
  breach_notified_at: string | null;
  updated_at: string;
}

export interface TicketSlaEventTable {
  id: string;
  organization_id: string;
  ticket_id: string;
  policy_id: string | null;
  target_id: string | null;
  metric: SlaMetric | null;
  kind: SlaEventKind;
  reason: string;
  due_at: string | null;
  actor_type: string;
  actor_id: string | null;
  created_at: string;
}
