import { readJson } from '../../db/dialect.js';
import type { ModelPrice } from './model-client.js';
import type { ModelProviderRow } from './model-provider.repository.js';

export function toModelProvider(row: ModelProviderRow) {
  return {
    id: row.id,
    organization_id: row.organization_id,
    name: row.name,
    kind: row.kind,
    base_url: row.base_url,
    default_model: row.default_model,
    model_prices: readJson<Record<string, ModelPrice>>(row.model_prices),
    has_api_key: row.api_key_encrypted !== null,
    created_by: row.created_by_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
