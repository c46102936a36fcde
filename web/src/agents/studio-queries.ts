import { queryOptions } from '@tanstack/react-query';
import {
  type AgentCreate,
  type ModelProvider,
  type ModelProviderCreate,
  type ModelProviderUpdate,
  type StudioAgent,
  studio,
  unwrapStudio,
} from '../api/agent-studio-client';
import { readAllPages } from '../api/read-all-pages';

/** Every agent-studio query starts with one of these keys, so a change refreshes its list and its page. */
export const PROVIDERS_KEY = ['agent-studio', 'model-providers'] as const;
export const AGENTS_KEY = ['agent-studio', 'agents'] as const;

const NEXT_CURSOR = 'x-next-cursor';
export const PAGE = 100;

/** A page of an agent-studio list: the array, and the next page's cursor from its header. */
export async function pageOf<Item>(call: Promise<{ data?: Item[]; error?: unknown; response: Response }>) {
  const pending = call;
  const data = await unwrapStudio(pending);
  return { data, nextCursor: (await pending).response.headers.get(NEXT_CURSOR) };
}

export const providersQuery = queryOptions({
  queryKey: [...PROVIDERS_KEY, 'list'],
  queryFn: () =>
    readAllPages((cursor) =>
      pageOf<ModelProvider>(
        studio.GET('/api/v1/model-providers', { params: { query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } }),
      ),
    ),
});

export const providerQuery = (id: string) =>
  queryOptions({
    queryKey: [...PROVIDERS_KEY, id],
    queryFn: () => unwrapStudio(studio.GET('/api/v1/model-providers/{provider_id}', { params: { path: { provider_id: id } } })),
  });

export const agentsQuery = queryOptions({
  queryKey: [...AGENTS_KEY, 'list'],
  queryFn: () =>
    readAllPages((cursor) =>
      pageOf<StudioAgent>(studio.GET('/api/v1/agents', { params: { query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } })),
    ),
});

export const agentQuery = (id: string) =>
  queryOptions({
    queryKey: [...AGENTS_KEY, id],
    queryFn: () => unwrapStudio(studio.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: id } } })),
  });

export const createProvider = (body: ModelProviderCreate) => unwrapStudio(studio.POST('/api/v1/model-providers', { body }));

export const updateProvider = (id: string, body: ModelProviderUpdate) =>
  unwrapStudio(studio.PATCH('/api/v1/model-providers/{provider_id}', { params: { path: { provider_id: id } }, body }));

export const deleteProvider = (id: string) =>
  unwrapStudio(studio.DELETE('/api/v1/model-providers/{provider_id}', { params: { path: { provider_id: id } } }));

export const testProvider = (id: string, model?: string) =>
  unwrapStudio(
    studio.POST('/api/v1/model-providers/{provider_id}/test', {
      params: { path: { provider_id: id } },
      body: model ? { model } : {},
    }),
  );

export const createAgent = (body: AgentCreate) => unwrapStudio(studio.POST('/api/v1/agents', { body }));

export const updateAgent = (id: string, body: Partial<AgentCreate>) =>
  unwrapStudio(studio.PUT('/api/v1/agents/{agent_id}', { params: { path: { agent_id: id } }, body }));

export const deleteAgent = (id: string) =>
  unwrapStudio(studio.DELETE('/api/v1/agents/{agent_id}', { params: { path: { agent_id: id } } }));
