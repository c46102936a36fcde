import type { Agent } from './agent-session.js';
import type { ConsoleServer } from './console-server.js';
import { createTeamWith, createTicket } from './inbox-session.js';

/** When the desk's tickets are made, on the server's fixed clock. */
export const SLA_DESK_CREATED = '2026-01-15T09:00:00.000Z';
/** Three minutes later: where the server's clock is left, and where a page's clock starts. */
export const SLA_DESK_NOW = '2026-01-15T09:03:00.000Z';

/**
 * A team of `agent` with one SLA policy (calendar time, `targets` for High priority), a High ticket
 * the policy binds and a Low one it does not, made at `SLA_DESK_CREATED`; the clock is then moved to
 * `SLA_DESK_NOW`.
 */
export async function seedSlaDesk(
  server: ConsoleServer,
  agent: Agent,
  clock: { set(at: string): void },
  targets: { firstReply?: number; resolution?: number },
) {
  const team = await createTeamWith(server, 'Care', 'CARE', agent);
  await server.call('POST', '/v1/sla-policies', { name: 'Fast first reply', businessHours: false, targets: { high: targets } });
  const bound = await createTicket(server, team.id, { title: 'Checkout is down', priorityName: 'High' });
  const unbound = await createTicket(server, team.id, { title: 'Change my invoice address', priorityName: 'Low' });
  clock.set(SLA_DESK_NOW);
  return { team, bound, unbound };
}
