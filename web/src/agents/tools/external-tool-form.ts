import type { AgentToolCreate } from './tool-queries';

export const METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'] as const;

/** The form's fields are named after the API's paths, so a refused value lands beside its field. */
export interface ExternalToolFormValues {
  tool_name: string;
  configuration: { url: string; method: string; description: string; parameters: string };
  require_approval: boolean;
}

export const EMPTY_EXTERNAL_TOOL: ExternalToolFormValues = {
  tool_name: '',
  configuration: {
    url: '',
    method: 'POST',
    description: '',
    parameters: '{\n  "type": "object",\n  "properties": {}\n}',
  },
  require_approval: false,
};

/** The arguments' JSON Schema as typed, or why it is not one. */
export function parseParameters(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `Not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'A JSON Schema is an object, such as {"type": "object", "properties": {}}' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * The API's body for an external tool. Its connection id only has to be a UUID (the tool's own
 * configuration says where it calls), so each tool gets a fresh one.
 */
export function externalToolBody(
  agentId: string,
  values: ExternalToolFormValues,
  parameters: Record<string, unknown>,
): AgentToolCreate {
  const description = values.configuration.description.trim();
  return {
    agent_id: agentId,
    tool_name: values.tool_name.trim(),
    tool_type: 'external_tool',
    external_tool_connection_id: crypto.randomUUID(),
    require_approval: values.require_approval,
    configuration: {
      url: values.configuration.url.trim(),
      method: values.configuration.method,
      parameters,
      ...(description ? { description } : {}),
    },
  };
}
