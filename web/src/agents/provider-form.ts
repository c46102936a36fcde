import type {
  ModelProvider,
  ModelProviderCreate,
  ModelProviderTestResult,
  ModelProviderUpdate,
} from '../api/agent-studio-client';
import { createProvider, deleteProvider, testProvider } from './studio-queries';

/** A provider as its form edits it. The key is never shown: empty keeps the stored one. */
export interface ProviderFormValues {
  name: string;
  kind: 'openai_compatible' | 'anthropic';
  base_url: string;
  default_model: string;
  api_key: string;
  remove_key: boolean;
}

export const PROVIDER_KINDS = [
  { value: 'openai_compatible', label: 'OpenAI-compatible (OpenAI, Azure, vLLM, Ollama, LM Studio…)' },
  { value: 'anthropic', label: 'Anthropic' },
] as const;

export function providerFormValues(provider?: ModelProvider): ProviderFormValues {
  return {
    name: provider?.name ?? '',
    kind: provider?.kind ?? 'openai_compatible',
    base_url: provider?.base_url ?? '',
    default_model: provider?.default_model ?? '',
    api_key: '',
    remove_key: false,
  };
}

export function newProviderBody(values: ProviderFormValues): ModelProviderCreate {
  const { api_key, remove_key: _, ...settings } = values;
  return { ...settings, ...(api_key ? { api_key } : {}) };
}

/** What changes: every setting, and the key only when a new one was typed or its removal asked for. */
export function providerChanges(values: ProviderFormValues): ModelProviderUpdate {
  const { api_key, remove_key, ...settings } = values;
  return { ...settings, ...(api_key ? { api_key } : remove_key ? { api_key: null } : {}) };
}

/**
 * Tries a key before it is saved. The API tests saved providers only, so a provider of the same
 * settings is made for the test and removed after it, whatever the answer: a key that fails is
 * then saved only if the user still wants it. A refused value (a bad URL) is thrown as the API
 * words it, about the same fields as the form's.
 */
export async function tryKey(values: ProviderFormValues): Promise<ModelProviderTestResult> {
  const trial = await createProvider({ ...newProviderBody(values), name: `Key test ${crypto.randomUUID()}` });
  try {
    return await testProvider(trial.id);
  } finally {
    await deleteProvider(trial.id);
  }
}
