import createClient from 'openapi-fetch';
import type { operations, paths } from './agent-studio';
import { ApiError, sessionMiddleware } from './client';

/**
 * The agent studio's API (`/api/v1`), called with the console's session like the platform's. Its
 * errors are FastAPI's: `{detail: "…"}`, or on a refused value `{detail: [{loc, msg, type}]}`.
 */
export const studio = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
studio.use(sessionMiddleware);

type Answer<Operation extends keyof operations> = operations[Operation]['responses'] extends {
  200: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
type Body<Operation extends keyof operations> = operations[Operation]['requestBody'] extends
  | { content: { 'application/json': infer Sent } }
  | undefined
  ? Sent
  : never;

export type ModelProvider = Answer<'agentStudio.modelProviders.get'>;
export type ModelProviderTestResult = Answer<'agentStudio.modelProviders.test'>;
export type StudioAgent = Answer<'agentStudio.agents.get'>;
export type ModelProviderCreate = Body<'agentStudio.modelProviders.create'>;
export type ModelProviderUpdate = Body<'agentStudio.modelProviders.update'>;
export type AgentCreate = Body<'agentStudio.agents.create'>;
export type AgentRun = Answer<'agentStudio.runs.get'>;
export type KnowledgeGap = Answer<'agentStudio.knowledgeGaps.list'>[number];

/**
 * The message of an agent-studio error. Each refused value is worded as its path, dotted without
 * the `body` it sits in, then pydantic's words (`configuration.temperature Input should be…`), and
 * joined with `; `, which is how `showApiError` puts each beside the field it names.
 */
export function studioMessageOf(body: unknown, response: Response): string {
  const detail = body && typeof body === 'object' && 'detail' in body ? body.detail : undefined;
  if (typeof detail === 'string') {
    return detail;
  }
  if (Array.isArray(detail) && detail.length > 0) {
    return detail
      .map((issue: { loc?: unknown[]; msg?: string }) => {
        const path = (issue.loc ?? []).filter((part, index) => !(index === 0 && part === 'body')).join('.');
        return path ? `${path} ${issue.msg ?? 'is not valid'}` : (issue.msg ?? 'is not valid');
      })
      .join('; ');
  }
  return `${response.status} ${response.statusText || 'request failed'}`;
}

/** The body of an agent-studio success, or an `ApiError` with its message. */
export async function unwrapStudio<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    throw new ApiError(0, `The server could not be reached (${error instanceof Error ? error.message : String(error)})`);
  }
  if (result.error !== undefined || !result.response.ok) {
    throw new ApiError(result.response.status, studioMessageOf(result.error, result.response));
  }
  return result.data as T;
}
