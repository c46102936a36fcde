import { queryOptions } from '@tanstack/react-query';
import { type KnowledgeGap, studio, unwrapStudio } from '../../api/agent-studio-client';
import { helpCenterApi, unwrap } from '../../api/client';
import { readAllPages } from '../../api/read-all-pages';
import type { CursorPage } from '../../ui/use-cursor-pages';
import { AGENTS_KEY } from '../studio-queries';

/** The ranges the page offers, in days back from now (the API takes 1–365). */
export const GAP_DAYS = [7, 30, 90, 365] as const;
export const DEFAULT_DAYS = 30;

const PAGE = 25;

export const gapsKey = (agentId: string, days: number) => [...AGENTS_KEY, agentId, 'knowledge-gaps', days];

/** A page of the agent's knowledge gaps, most asked first: the API's `x-next-cursor` header gives the next. */
export async function gapsPage(agentId: string, days: number, cursor: string | undefined): Promise<CursorPage<KnowledgeGap>> {
  const call = studio.GET('/api/v1/agents/{agent_id}/knowledge-gaps', {
    params: { path: { agent_id: agentId }, query: { days, limit: PAGE, ...(cursor ? { cursor } : {}) } },
  });
  const data = await unwrapStudio(call);
  return { data, nextCursor: (await call).response.headers.get('x-next-cursor') };
}

/** The organization's help centers, oldest first: where a new article may go. */
export const helpCenterChoicesQuery = queryOptions({
  queryKey: ['help-centers', 'article-destinations'],
  queryFn: () =>
    readAllPages((cursor) => unwrap(helpCenterApi.GET('/help-centers', { params: { query: { limit: 100, cursor } } }))),
});

/**
 * The article editor, opened on a new article titled with the question. The editor's route lives in
 * the Knowledge area, so this is a plain URL under the console's base path (/app), not a typed route.
 */
export function newArticleHref(helpCenterId: string, question: string): string {
  return `/app/knowledge/${encodeURIComponent(helpCenterId)}/articles/new?title=${encodeURIComponent(question)}`;
}
