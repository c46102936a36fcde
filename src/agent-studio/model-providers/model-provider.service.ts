import type { Static } from '@sinclair/typebox';
import type { Kysely, Updateable } from 'kysely';
import type { DB } from '../../db/database.js';
import { writeJson } from '../../db/dialect.js';
import { conflictAs } from '../../db/errors.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage } from '../../lib/cursors.js';
import { AppError, type ValidationIssue } from '../../lib/errors.js';
import { staticUrlProblem } from '../../lib/guarded-fetch.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { describeIssue } from '../../lib/validation-issues.js';
import { isOrgAdmin } from '../../platform/authorization.js';
import { DEFAULT_LIST_LIMIT, readListCursor } from '../agent-studio.pagination.js';
import {
  apiKeyField,
  describeModelError,
  endpointOfProvider,
  languageModelOf,
  loadAiSdk,
  type ModelAccess,
  type ModelEndpoint,
} from './model-client.js';
import { toModelProvider } from './model-provider.presenter.js';
import {
  deleteModelProvider,
  findModelProvider,
  insertModelProvider,
  listModelProviders,
  type ModelProviderRow,
  updateModelProvider,
} from './model-provider.repository.js';
import type {
  CreateModelProviderSchema,
  ListModelProvidersQuerySchema,
  TestModelProviderSchema,
  UpdateModelProviderSchema,
} from './model-provider.schemas.js';
import type { ModelProviderTable } from './model-provider.table.js';
export interface ModelProviderDeps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
  access: ModelAccess;
}

export const PROVIDER_NOT_FOUND = 'Model provider not found';
const NAME_TAKEN = 'A model provider with this name already exists';
const ADMINS_ONLY = 'Only organization admins manage model providers';
const TEST_TIMEOUT_MS = 30_000;
const TEST_REPLY_CHARS = 200;

/** Providers hold the organization's API keys and spend its money: admins manage them. */
function requireAdmin(principal: Principal): void {
  if (!isOrgAdmin(principal)) {
    throw AppError.forbidden(ADMINS_ONLY);
  }
}

async function requireProvider(db: Kysely<DB>, principal: Principal, providerId: string): Promise<ModelProviderRow> {
  const row = await findModelProvider(db, principal.organizationId, providerId);
  if (!row) {
    throw AppError.notFound(PROVIDER_NOT_FOUND);
  }
  return row;
}

/** The outbound policy's static check: http(s), no userinfo, https unless allowlisted, public IP literals. */
function checkBaseUrl(access: ModelAccess, baseUrl: string | undefined): void {
  const problem = baseUrl === undefined ? null : staticUrlProblem(baseUrl, access.policy, 'base_url');
  if (problem) {
    const issue: ValidationIssue = {
      location: 'body',
      path: ['base_url'],
      rule: 'value_error',
      message: `Value error, ${problem}`,
    };
    throw new AppError({ code: 'VALIDATION', message: describeIssue(issue), issues: [issue] });
  }
}

/**
 * A new `base_url` needs the key again (or `api_key: null`), as a new IMAP host or user needs its
 * password: the stored key is never sent to a URL it was not entered for.
 */
function checkKeyFollowsUrl(row: ModelProviderRow, input: Static<typeof UpdateModelProviderSchema>): void {
  const moved = input.base_url !== undefined && input.base_url !== row.base_url;
  if (moved && input.api_key === undefined && row.api_key_encrypted !== null) {
    const issue: ValidationIssue = {
      location: 'body',
      path: ['api_key'],
      rule: 'value_error',
      message: 'Value error, api_key is required for a new base_url (null removes the stored key)',
    };
    throw new AppError({ code: 'VALIDATION', message: describeIssue(issue), issues: [issue] });
  }
}

/** Whether the organization has the model provider `providerId` (an agent's configuration may name only those). */
export async function modelProviderExists(db: Kysely<DB>, organizationId: string, providerId: string): Promise<boolean> {
  return (await findModelProvider(db, organizationId, providerId)) !== undefined;
}

/** Where a run reaches the organization's model provider `providerId`, or null once the provider is deleted. */
export async function endpointOfOrganizationProvider(
  db: Kysely<DB>,
  access: ModelAccess,
  organizationId: string,
  providerId: string,
): Promise<ModelEndpoint | null> {
  const row = await findModelProvider(db, organizationId, providerId);
  return row ? endpointOfProvider(row, access.box, access.outbound.fetch) : null;
}

export async function createModelProvider(
  deps: ModelProviderDeps,
  principal: Principal,
  input: Static<typeof CreateModelProviderSchema>,
) {
  requireAdmin(principal);
  checkBaseUrl(deps.access, input.base_url);
  const at = deps.clock.now().toISOString();
  const id = deps.ids.uuid();
  const row: ModelProviderTable = {
    id,
    organization_id: principal.organizationId,
    created_by_id: principal.userId,
    name: input.name,
    kind: input.kind,
    base_url: input.base_url,
    api_key_encrypted: input.api_key ? deps.access.box.seal(input.api_key, apiKeyField(id)) : null,
    default_model: input.default_model,
    model_prices: writeJson(input.model_prices),
    created_at: at,
    updated_at: at,
  };
  // A taken name is the unique constraint's 409, whoever won the race.
  await insertModelProvider(deps.db, row).catch(conflictAs(NAME_TAKEN));
  return toModelProvider(row);
}

/** In creation order (created_at, then id): a keyset page. Any member may see them, never a key. */
export async function listOrganizationModelProviders(
  db: Kysely<DB>,
  principal: Principal,
  query: Static<typeof ListModelProvidersQuerySchema>,
) {
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const after = readListCursor(query, ['instant', 'text']);
  const rows = await listModelProviders(db, principal.organizationId, { after, limit: limit + 1 });
  const page = keysetPage(rows, limit, (row) => [row.created_at, row.id]);
  return { items: page.items.map(toModelProvider), nextCursor: page.nextCursor };
}

export async function getModelProvider(db: Kysely<DB>, principal: Principal, providerId: string) {
  return toModelProvider(await requireProvider(db, principal, providerId));
}

/**
 * Fields sent replace the stored ones; `api_key: null` removes the key, a new one replaces it. A
 * new `base_url` comes with its key (or null).
 */
export async function updateModelProviderDetails(
  deps: ModelProviderDeps,
  principal: Principal,
  providerId: string,
  input: Static<typeof UpdateModelProviderSchema>,
) {
  requireAdmin(principal);
  const row = await requireProvider(deps.db, principal, providerId);
  checkBaseUrl(deps.access, input.base_url);
  checkKeyFollowsUrl(row, input);
  const changes: Updateable<ModelProviderTable> = { updated_at: deps.clock.now().toISOString() };
  for (const key of ['name', 'base_url', 'default_model'] as const) {
    if (input[key] !== undefined) {
      changes[key] = input[key];
    }
  }
  if (input.kind !== undefined) {
    changes.kind = input.kind;
  }
  if (input.api_key !== undefined) {
    changes.api_key_encrypted = input.api_key === null ? null : deps.access.box.seal(input.api_key, apiKeyField(row.id));
  }
  if (input.model_prices !== undefined) {
    changes.model_prices = writeJson(input.model_prices);
  }
  const updated = await updateModelProvider(deps.db, principal.organizationId, row.id, changes).catch(conflictAs(NAME_TAKEN));
  if (updated === 0) {
    throw AppError.notFound(PROVIDER_NOT_FOUND);
  }
  return getModelProvider(deps.db, principal, row.id);
}

/**
 * Removes the provider. Agents naming it stop running (their runs fail saying so) until they name
 * another; past runs keep its id.
 */
export async function removeModelProvider(deps: ModelProviderDeps, principal: Principal, providerId: string) {
  requireAdmin(principal);
  if ((await deleteModelProvider(deps.db, principal.organizationId, providerId)) === 0) {
    throw AppError.notFound(PROVIDER_NOT_FOUND);
  }
  return { status: 'success' as const, message: 'Model provider deleted successfully' };
}

/** One tiny completion: the latency, and what the model said or why the provider refused. */
export async function testModelProvider(
  deps: ModelProviderDeps,
  principal: Principal,
  providerId: string,
  input: Static<typeof TestModelProviderSchema> | undefined,
) {
  requireAdmin(principal);
  const row = await requireProvider(deps.db, principal, providerId);
  const model = input?.model ?? row.default_model;
  const sdk = await loadAiSdk();
  const started = performance.now();
  try {
    const result = await sdk.ai.generateText({
      model: await languageModelOf(endpointOfProvider(row, deps.access.box, deps.access.outbound.fetch), model),
      prompt: 'Reply with the single word: ok',
      maxOutputTokens: 16,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(TEST_TIMEOUT_MS),
    });
    return {
      ok: true,
      model,
      latency_ms: Math.round(performance.now() - started),
      reply: result.text.slice(0, TEST_REPLY_CHARS),
      error: null,
    };
  } catch (error) {
    return {
      ok: false,
      model,
      latency_ms: Math.round(performance.now() - started),
      reply: null,
      error: describeModelError(sdk, error),
    };
  }
}
