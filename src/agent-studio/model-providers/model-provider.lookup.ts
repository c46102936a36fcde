import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import type { FetchLike } from '../../lib/guarded-fetch.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { defaultEndpoint, endpointOfProvider, type ModelEndpoint } from './model-client.js';
import { listModelProviders } from './model-provider.repository.js';

/**
 * The model an organization's own features ask when no agent names one (a channel classifying its
 * messages): its oldest provider, else the server default (`LLM_BASE_URL`), else none.
 */
export async function organizationModelEndpoint(
  db: Kysely<DB>,
  config: Config,
  organizationId: string,
  access: { box: SecretBox; fetch: FetchLike },
): Promise<ModelEndpoint | null> {
  const [first] = await listModelProviders(db, organizationId, { limit: 1 });
  return first ? endpointOfProvider(first, access.box, access.fetch) : defaultEndpoint(config);
}
