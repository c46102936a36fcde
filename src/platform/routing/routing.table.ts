/** What started a routing decision. */
export type RoutingTrigger = 'create' | 'reroute' | 'member_available' | 'ticket_closed' | 'worker';

/**
 * How the agent step ended: an agent chosen by round robin, the agent named in the request,
 * or the ticket left waiting (manual team, team closed, nobody eligible).
 */
export type RoutingOutcome = 'assigned' | 'explicit_agent' | 'manual' | 'team_closed' | 'no_eligible_agent';

/** One routing decision about one ticket; `explanation` is the JSON the API shows. */
export interface TicketRoutingDecisionTable {
  id: string;
  organization_id: string;
  ticket_id: string;
  trigger: RoutingTrigger;
  /** The team the ticket was in when routing started. */
  from_team_id: string;
  /** The team routing chose. */
  team_id: string;
  agent_id: string | null;
  outcome: RoutingOutcome;
  matched_rule_id: string | null;
  /** Set when the decision moved an existing ticket, which renumbers it in its new team. */
  previous_ticket_identifier: string | null;
  explanation: string;
  decided_by_id: string | null;
  created_at: string;
}
