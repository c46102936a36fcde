import { readJson } from '../../db/dialect.js';
import type { ChatMessageRow, ChatThreadRow } from './chat.repository.js';

type JsonObject = Record<string, unknown>;

export interface ToolCall {
  tool_name: string;
  arguments: JsonObject | null;
  result: unknown;
  error: string | null;
  start_time: string | null;
  end_time: string | null;
}

/** A user's thread as the chat API shows it; every query of that API reads the caller's own threads only. */
export function toThreadSummary(row: ChatThreadRow) {
  if (row.user_id === null) {
    throw new Error(`chat thread ${row.id} belongs to a messenger visitor, not a user`);
  }
  return {
    id: row.id,
    agent_id: row.agent_id,
    user_id: row.user_id,
    anon_user_id: null,
    organization_id: row.organization_id,
    title: row.title,
    metadata: readJson<JsonObject>(row.metadata),
    last_activity_at: row.last_activity_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toMessage(row: ChatMessageRow) {
  return {
    id: row.id,
    thread_id: row.thread_id,
    content: row.content,
    content_html: row.content_html,
    role: row.role,
    tool_calls: readJson<ToolCall[]>(row.tool_calls) ?? [],
    attachments: readJson<unknown[]>(row.attachments) ?? [],
    metadata: readJson<JsonObject>(row.metadata),
    created_at: row.created_at,
    feedback: null,
  };
}
