import type { Agent } from './agent-session.js';
import type { ConsolePage } from './browser.js';
import type { ConsoleServer } from './console-server.js';

export interface SeededTicket {
  id: string;
  ticketIdentifier: string;
  title: string;
}

/** A ticket through the API, as an integration would file it (no routing, so it stays as asked). */
export async function createTicket(
  server: ConsoleServer,
  teamId: string,
  fields: { title: string; priorityName?: string; statusName?: string; assignedAgentId?: string; description?: string },
): Promise<SeededTicket> {
  return server.call<SeededTicket>('POST', '/v1/tickets', {
    requestorEmail: 'customer@example.test',
    teamId,
    performRouting: false,
    ...fields,
  });
}

/** A team with the agent in it. */
export async function createTeamWith(server: ConsoleServer, name: string, identifier: string, agent: Agent) {
  const team = await server.call<{ id: string }>('POST', '/v1/teams', { name, identifier });
  await server.call('POST', `/v1/teams/${team.id}/members`, { userId: agent.id });
  return team;
}

/** The page's own failures: resource loads the test provoked on purpose are the browser's noise, not the page's. */
export function pageFailures(session: ConsolePage): string[] {
  return session.pageErrors.filter((error) => !error.startsWith('Failed to load resource'));
}
