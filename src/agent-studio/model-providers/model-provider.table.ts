export type ModelProviderKind = 'openai_compatible' | 'anthropic';

export interface ModelProviderTable {
  id: string;
  organization_id: string;
  created_by_id: string;
  name: string;
  kind: ModelProviderKind;
  base_url: string;
  /** Sealed with `SECRET_KEY` (AAD `model-provider|<id>|api_key`); null for a server needing none (Ollama). */
  api_key_encrypted: string | null;
  default_model: string;
  /** JSON: model name → `{input_per_million_tokens, output_per_million_tokens}`. */
  model_prices: string | null;
  created_at: string;
  updated_at: string;
}
