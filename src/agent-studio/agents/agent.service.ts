import type { Static } from '@sinclair/typebox';
import type { Kysely, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { writeJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage } from '../../lib/cursors.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { DEFAULT_LIST_LIMIT, readListCursor } from '../agent-studio.pagination.js';
import { modelProviderExists } from '../model-providers/model-provider.service.js';
import { tokensUsedThisMonth } from '../runtime/token-budget.js';
import { requireAgent, requireAgentManager, requireManageableAgent } from './agent.lookup.js';
import { toAgent } from './agent.presenter.js';
import { insertAgent, listAgents, updateAgent } from './agent.repository.js';
import type { CreateAgentSchema, ListAgentsQuerySchema, UpdateAgentSchema } from './agent.schemas.js';
import type { AgentTable } from './agent.table.js';

// The lookups live beside the repository so tools, chats and MCP servers can use them without a cycle.
export { requireAgent, requireManageableAgent };

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

/** A model provider named in the configuration must be one of the caller's organization. */
async function checkConfiguration(db: Kysely<DB>, principal: Principal, configuration: Record<string, unknown> | undefined) {
  const providerId = configuration?.model_provider_id;
  if (typeof providerId === 'string' && !(await modelProviderExists(db, principal.organizationId, providerId))) {
    throw AppError.invalid('Value error, model_provider_id must name a model provider of this organization', {
      location: 'body',
      path: ['configuration', 'model_provider_id'],
      rule: 'value_error',
    });
  }
}

export async function createAgent(deps: Deps, principal: Principal, input: Static<typeof CreateAgentSchema>) {
  requireAgentManager(principal);
  await checkConfiguration(deps.db, principal, input.configuration);
  const at = deps.clock.now().toISOString();
  const id = deps.ids.uuid();
  await insertAgent(deps.db, {
    id,
    organization_id: principal.organizationId,
    created_by_id: principal.userId,
    name: input.name,
    description: input.description ?? null,
    configuration: writeJson(input.configuration ?? {}) ?? '{}',
    template_id: input.template_id ?? null,
    avatar_url: input.avatar_url ?? null,
    metadata: writeJson(input.metadata),
    status: input.status ?? 'active',
    created_at: at,
    updated_at: at,
    deleted_at: null,
  });
  return getAgent(deps, principal, id);
}

/** Oldest first (created_at, then id): a keyset page. */
export async function listOrganizationAgents(
  deps: Pick<Deps, 'db' | 'clock'>,
  principal: Principal,
  query: Static<typeof ListAgentsQuerySchema>,
) {
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const after = readListCursor(query, ['instant', 'text']);
  const rows = await listAgents(deps.db, principal.organizationId, { status: query.status }, { after, limit: limit + 1 });
  const page = keysetPage(rows, limit, (row) => [row.created_at, row.id]);
  const usage = await tokensUsedThisMonth(
    deps,
    principal.organizationId,
    page.items.map((row) => row.id),
  );
  return {
    items: page.items.map((row) => toAgent(row, { month: usage.month, tokens: usage.tokens.get(row.id) ?? 0 })),
    nextCursor: page.nextCursor,
  };
}

export async function getAgent(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, agentId: string) {
  const row = await requireAgent(deps.db, principal, agentId);
  const usage = await tokensUsedThisMonth(deps, principal.organizationId, [row.id]);
  return toAgent(row, { month: usage.month, tokens: usage.tokens.get(row.id) ?? 0 });
}

/** Fields sent replace the stored ones; fields left out stay; `null` clears a nullable field. */
export async function updateAgentDetails(
  deps: Deps,
  principal: Principal,
  agentId: string,
  input: Static<typeof UpdateAgentSchema>,
) {
  const agent = await requireManageableAgent(deps.db, principal, agentId);
  await checkConfiguration(deps.db, principal, input.configuration);
  const changes: Updateable<AgentTable> = { updated_at: deps.clock.now().toISOString() };
  if (input.name !== undefined) {
    changes.name = input.name;
  }
  if (input.configuration !== undefined) {
    changes.configuration = writeJson(input.configuration) ?? '{}';
  }
  if (input.metadata !== undefined) {
    changes.metadata = writeJson(input.metadata);
  }
  for (const key of ['description', 'template_id', 'avatar_url'] as const) {
    if (input[key] !== undefined) {
      changes[key] = input[key];
    }
  }
  if (input.status !== undefined) {
    changes.status = input.status;
  }
  await updateAgent(deps.db, principal.organizationId, agent.id, changes);
  return getAgent(deps, principal, agent.id);
}

/**
 * Soft delete: the row stays (its tools, MCP servers and chat threads still reference it) but the
 * agent and everything under it answer 404 from now on.
 */
export async function deleteAgent(deps: Deps, principal: Principal, agentId: string) {
  const agent = await requireManageableAgent(deps.db, principal, agentId);
  const at = deps.clock.now().toISOString();
  await updateAgent(deps.db, principal.organizationId, agent.id, { deleted_at: at, updated_at: at });
  return { status: 'success' as const, message: 'Agent deleted successfully' };
}
