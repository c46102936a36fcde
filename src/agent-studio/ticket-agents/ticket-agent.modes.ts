// Apart from ticket-agent.table.ts (types only, erased at build) because the team configuration's
// schema needs the list as a value.

/** How a team's agent works its tickets: not at all, suggesting replies as internal notes, or replying itself. */
export const TICKET_AGENT_MODES = ['off', 'draft', 'auto'] as const;
export type TicketAgentMode = (typeof TICKET_AGENT_MODES)[number];
