import { type FetchLike, isBlockedError, type OutboundPolicy, staticUrlProblem } from '../../lib/guarded-fetch.js';
import type { RuntimeTool } from './runtime-tool.js';

/**
 * An `external_tool` agent tool: one HTTP call to a URL its configuration names, through the
 * outbound guard. Its configuration:
 * `{url, method?: GET|POST|PUT|PATCH|DELETE (POST), description?, parameters?: JSON Schema of the
 * arguments, headers?: {name: value}}`. GET and DELETE send the arguments as the query string,
 * the others as a JSON body. The arguments are checked against `parameters` before the call (by
 * the run, as for every tool).
 */

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
const MAX_ERROR_BODY = 500;

interface ExternalToolConfiguration {
  url: string;
  method: string;
  description: string;
  parameters: Record<string, unknown>;
  headers: Record<string, string>;
}

/** The configuration as a call needs it, or why it cannot be called. */
export function readExternalToolConfiguration(
  configuration: Record<string, unknown> | null,
  policy: OutboundPolicy,
): { ok: true; value: ExternalToolConfiguration } | { ok: false; problem: string } {
  const config = configuration ?? {};
  if (typeof config.url !== 'string') {
    return { ok: false, problem: 'configuration.url is missing' };
  }
  const urlProblem = staticUrlProblem(config.url, policy, 'configuration.url');
  if (urlProblem) {
    return { ok: false, problem: urlProblem };
  }
  const method = typeof config.method === 'string' ? config.method.toUpperCase() : 'POST';
  if (!METHODS.has(method)) {
    return { ok: false, problem: 'configuration.method must be GET, POST, PUT, PATCH or DELETE' };
  }
  const parameters = config.parameters ?? { type: 'object', properties: {} };
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    return { ok: false, problem: 'configuration.parameters must be a JSON Schema object' };
  }
  const headers: Record<string, string> = {};
  if (config.headers !== undefined) {
    if (typeof config.headers !== 'object' || config.headers === null) {
      return { ok: false, problem: 'configuration.headers must be an object of strings' };
    }
    for (const [name, value] of Object.entries(config.headers)) {
      if (typeof value !== 'string' || RESERVED_HEADERS.has(name.toLowerCase())) {
        return { ok: false, problem: `configuration.headers.${name} cannot be sent` };
      }
      headers[name] = value;
    }
  }
  return {
    ok: true,
    value: {
      url: config.url,
      method,
      description: typeof config.description === 'string' ? config.description : '',
      parameters: parameters as Record<string, unknown>,
      headers,
    },
  };
}

export function externalRuntimeTool(
  name: string,
  configuration: Record<string, unknown> | null,
  policy: OutboundPolicy,
  fetchFn: FetchLike,
): RuntimeTool {
  const read = readExternalToolConfiguration(configuration, policy);
  const description = read.ok && read.value.description ? read.value.description : `Calls the external tool ${name}.`;
  return {
    name,
    description,
    parameters: read.ok ? read.value.parameters : { type: 'object' },
    async execute(args, context) {
      if (!read.ok) {
        throw new Error(`External tool '${name}' is not configured correctly: ${read.problem}`);
      }
      return callExternal(name, read.value, (args ?? {}) as Record<string, unknown>, fetchFn, context.signal);
    },
  };
}

async function callExternal(
  name: string,
  config: ExternalToolConfiguration,
  args: Record<string, unknown>,
  fetchFn: FetchLike,
  signal: AbortSignal,
): Promise<unknown> {
  const url = new URL(config.url);
  const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9, */*;q=0.1', ...config.headers };
  let body: string | undefined;
  if (config.method === 'GET' || config.method === 'DELETE') {
    for (const [key, value] of Object.entries(args)) {
      url.searchParams.set(key, typeof value === 'string' ? value : JSON.stringify(value));
    }
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(args);
  }
  let response: Response;
  try {
    response = await fetchFn(url, { method: config.method, headers, body, signal, redirect: 'manual' });
  } catch (error) {
    if (signal.aborted) {
      throw error;
    }
    throw new Error(
      isBlockedError(error)
        ? `External tool '${name}': its URL is refused by the outbound policy`
        : `External tool '${name}' could not be reached`,
    );
  }
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`External tool '${name}' answered HTTP ${response.status}: ${text.slice(0, MAX_ERROR_BODY)}`);
  }
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
