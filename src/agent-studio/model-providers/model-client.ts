import type { LanguageModel } from 'ai';
import type { Config } from '../../config.js';
import { readJson } from '../../db/dialect.js';
import type { AppDeps } from '../../deps.js';
import {
  causeChain,
  createGuardedFetch,
  type FetchLike,
  type GuardedFetch,
  isBlockedError,
  type OutboundPolicy,
  parseOutboundPolicy,
} from '../../lib/guarded-fetch.js';
import { loadOnce } from '../../lib/load-once.js';
import { createSecretBox, type SecretBox } from '../../lib/secret-box.js';
import type { ModelProviderRow } from './model-provider.repository.js';
import type { ModelProviderKind } from './model-provider.table.js';

/**
 * Talking to a model provider: the AI SDK and its two providers, imported when a process first
 * calls a model (most never do, and they are large), a provider row or the server default turned
 * into a model, and the SDK's errors worded for the run's record.
 */

export const loadAiSdk = loadOnce(async () => {
  const [ai, openaiCompatible, anthropic] = await Promise.all([
    import('ai'),
    import('@ai-sdk/openai-compatible'),
    import('@ai-sdk/anthropic'),
  ]);
  return { ai, openaiCompatible, anthropic };
});

export type AiSdk = Awaited<ReturnType<typeof loadAiSdk>>;

/** What reaching the providers of one app takes: the sealing key, the outbound policy, one pooled fetch. */
export interface ModelAccess {
  box: SecretBox;
  policy: OutboundPolicy;
  /** Model calls through the outbound guard; a completion may take minutes before its headers. */
  outbound: GuardedFetch;
}

const accessOfApp = new WeakMap<AppDeps, ModelAccess>();

/** The app's one `ModelAccess`, made on first use; its pool is closed with the app (see the plugin). */
export function modelAccessOf(deps: AppDeps): ModelAccess {
  let access = accessOfApp.get(deps);
  if (!access) {
    const policy = parseOutboundPolicy(deps.config.OUTBOUND_ALLOWED_HOSTS);
    access = {
      box: createSecretBox(deps.secretKey),
      policy,
      outbound: createGuardedFetch(policy, {
        headersTimeoutMs: 600_000,
        discoveryTimeoutMs: 600_000,
        bodyTimeoutMs: 300_000,
      }),
    };
    accessOfApp.set(deps, access);
  }
  return access;
}

export interface ModelPrice {
  input_per_million_tokens: number;
  output_per_million_tokens: number;
}

/** Where a run's model is: a provider of the organization, or the server's default (`LLM_*`). */
export interface ModelEndpoint {
  /** Null for the server default. */
  providerId: string | null;
  kind: ModelProviderKind;
  baseUrl: string;
  apiKey: string | undefined;
  defaultModel: string;
  prices: Record<string, ModelPrice>;
  /** Provider URLs users configure go through the outbound guard; the operator's default does not. */
  fetch: FetchLike;
}

/** AAD of the sealed key: it only opens on its own provider row. */
export const apiKeyField = (providerId: string) => `model-provider|${providerId}|api_key`;

export function endpointOfProvider(row: ModelProviderRow, box: SecretBox, guardedFetch: FetchLike): ModelEndpoint {
  return {
    providerId: row.id,
    kind: row.kind,
    baseUrl: row.base_url,
    apiKey: row.api_key_encrypted ? (box.open(row.api_key_encrypted, apiKeyField(row.id)) ?? undefined) : undefined,
    defaultModel: row.default_model,
    prices: readJson<Record<string, ModelPrice>>(row.model_prices) ?? {},
    fetch: guardedFetch,
  };
}

/** The server default, when `LLM_BASE_URL` is set: an OpenAI-compatible endpoint the operator chose. */
export function defaultEndpoint(config: Config): ModelEndpoint | null {
  if (!config.LLM_BASE_URL || !config.LLM_MODEL) {
    return null;
  }
  return {
    providerId: null,
    kind: 'openai_compatible',
    baseUrl: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    defaultModel: config.LLM_MODEL,
    prices: {},
    fetch: (url, init) => fetch(url, init),
  };
}

export async function languageModelOf(endpoint: ModelEndpoint, model: string): Promise<LanguageModel> {
  const { openaiCompatible, anthropic } = await loadAiSdk();
  const fetchFunction = endpoint.fetch as typeof globalThis.fetch;
  if (endpoint.kind === 'anthropic') {
    return anthropic.createAnthropic({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey ?? '', fetch: fetchFunction })(model);
  }
  return openaiCompatible
    .createOpenAICompatible({
      name: 'provider',
      baseURL: endpoint.baseUrl,
      apiKey: endpoint.apiKey,
      fetch: fetchFunction,
      // Streamed answers then end with their token counts.
      includeUsage: true,
    })
    .chatModel(model);
}

/** The cost of a run's tokens where the provider prices its model, else null. */
export function costOf(endpoint: ModelEndpoint, model: string, inputTokens: number, outputTokens: number): number | null {
  const price = endpoint.prices[model];
  if (!price) {
    return null;
  }
  const cost = (inputTokens * price.input_per_million_tokens + outputTokens * price.output_per_million_tokens) / 1_000_000;
  return Math.round(cost * 1e8) / 1e8;
}

const MAX_PROVIDER_MESSAGE = 300;
const GARBAGE = 'The model provider answered something that is not a valid completion';

/** A provider's own words, on one line and short: they may be long HTML or JSON. */
function providerWords(text: string | undefined): string {
  const oneLine = (text ?? '').replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_PROVIDER_MESSAGE ? `${oneLine.slice(0, MAX_PROVIDER_MESSAGE)}…` : oneLine;
}

/**
 * Why a model call failed, for the run's record and the provider test: the HTTP status and the
 * provider's message where there was one, whether retries were spent, a refused address, garbage.
 */
export function describeModelError(sdk: AiSdk, error: unknown): string {
  const { APICallError, RetryError, JSONParseError, TypeValidationError, InvalidResponseDataError, EmptyResponseBodyError } =
    sdk.ai;
  let retried = '';
  let cause = error;
  if (RetryError.isInstance(error)) {
    retried = ` (after ${error.errors.length} attempts)`;
    cause = error.lastError;
  }
  if (isBlockedError(cause)) {
    return 'The model provider’s address is refused by the outbound policy (a private address or plain http needs OUTBOUND_ALLOWED_HOSTS)';
  }
  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode;
    if (status === undefined) {
      return `The model provider could not be reached${retried}: ${networkReason(cause)}`;
    }
    if (status < 300) {
      return GARBAGE;
    }
    const words = providerWords(cause.message);
    const what =
      status === 401 || status === 403
        ? 'refused the credentials'
        : status === 404
          ? 'does not know the model or path'
          : status === 429
            ? 'is rate limiting'
            : status >= 500
              ? 'failed'
              : 'refused the request';
    return `The model provider ${what} (HTTP ${status})${retried}${words ? `: ${words}` : ''}`;
  }
  if (
    JSONParseError.isInstance(cause) ||
    TypeValidationError.isInstance(cause) ||
    InvalidResponseDataError.isInstance(cause) ||
    EmptyResponseBodyError.isInstance(cause)
  ) {
    return GARBAGE;
  }
  return `The model call failed${retried}: ${providerWords(cause instanceof Error ? cause.message : String(cause))}`;
}

function networkReason(error: unknown): string {
  const codes = causeChain(error).map((entry) => (entry as { code?: unknown }).code);
  const names = causeChain(error).map((entry) => (entry as { name?: unknown }).name);
  if (names.includes('TimeoutError') || codes.some((code) => typeof code === 'string' && code.includes('TIMEOUT'))) {
    return 'timed out';
  }
  if (codes.includes('ECONNREFUSED')) {
    return 'connection refused';
  }
  if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN')) {
    return 'host not found';
  }
  if (codes.includes('ERR_RESPONSE_TOO_LARGE')) {
    return 'the answer was too large';
  }
  return 'connection failed';
}
