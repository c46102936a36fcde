import { readJson } from '../../db/dialect.js';
import type { ToolCall } from './chat.presenter.js';
import type { ChatMessageRow, ChatThreadRow } from './chat.repository.js';

/** The knowledge-base tools whose results an answer may cite (see `runtime/run-tools.ts`). */
const KNOWLEDGE_BASE_TOOL_NAMES = new Set(['search_knowledge_base', 'knowledge_base_search']);

export interface Citation {
  title: string;
  url: string;
}

/** A visitor's conversation as the messenger shows it. */
export function toVisitorThread(row: ChatThreadRow) {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    lastActivityAt: row.last_activity_at,
  };
}

/**
 * The articles an answer cites: those of its knowledge-base searches whose link the answer gives.
 * A search result the answer does not link is not a source of it.
 */
export function citationsOf(content: string, toolCalls: readonly ToolCall[]): Citation[] {
  const cited = new Map<string, Citation>();
  for (const call of toolCalls) {
    if (!KNOWLEDGE_BASE_TOOL_NAMES.has(call.tool_name) || call.error !== null) {
      continue;
    }
    const results = (call.result as { results?: unknown } | null)?.results;
    for (const result of Array.isArray(results) ? results : []) {
      const { title, url } = (result ?? {}) as { title?: unknown; url?: unknown };
      if (typeof title === 'string' && typeof url === 'string' && content.includes(url) && !cited.has(url)) {
        cited.set(url, { title, url });
      }
    }
  }
  return [...cited.values()];
}

/**
 * A message as its visitor sees it: their words and the agent's answers, never tool calls or
 * notes; `helpful` is the visitor's rating of an answer (null until rated, and for their own words).
 */
export function toVisitorMessage(row: ChatMessageRow, helpful: boolean | null = null) {
  const toolCalls = readJson<ToolCall[]>(row.tool_calls) ?? [];
  const answer = row.role === 'assistant';
  return {
    id: row.id,
    author: answer ? ('assistant' as const) : ('visitor' as const),
    authorName: null,
    content: row.content,
    attachments: [],
    citations: answer ? citationsOf(row.content, toolCalls) : [],
    helpful: answer ? helpful : null,
    createdAt: row.created_at,
  };
}

/** Whether a visitor sees the message: system prompts and tool results stay inside the run. */
export const shownToVisitor = (row: Pick<ChatMessageRow, 'role'>) => row.role === 'user' || row.role === 'assistant';
