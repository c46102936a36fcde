import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import type { TypeBoxApp } from '../../http/typebox-app.js';
import {
  PlatformEnvelopeSchema,
  PlatformListEnvelopeSchema,
  platformEnvelope,
  platformErrorResponses,
  platformListEnvelope,
} from '../platform.envelope.js';
import {
  ApiKeyParamsSchema,
  ApiKeySummarySchema,
  CreateApiKeySchema,
  CreateUserSchema,
  IssuedApiKeySchema,
  ListApiKeysQuerySchema,
  ListUsersQuerySchema,
  MeSchema,
  UpdateUserSchema,
  UserIdParamsSchema,
  UserSchema,
} from './user.schemas.js';
import {
  createUser,
  createUserApiKey,
  getMe,
  getUser,
  listOrganizationUsers,
  listUserApiKeys,
  revokeUserApiKey,
  updateUserProfile,
} from './user.service.js';

const tags = ['users'];

export function userRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    registerUserRoutes(app, deps);
    registerApiKeyRoutes(app, deps);
  };
}

/** The caller, and the organization's users: create, list, read, change. */
function registerUserRoutes(app: TypeBoxApp, deps: AppDeps): void {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  const list = <T>(page: { items: T; nextCursor: string | null }) =>
    platformListEnvelope(deps.clock, page.items, page.nextCursor);

  app.get(
    '/users/me',
    {
      schema: {
        operationId: 'platform.users.me',
        tags,
        summary: "The caller's user and organization",
        response: { 200: PlatformEnvelopeSchema(MeSchema), ...platformErrorResponses([]) },
      },
    },
    async (request) => ok(await getMe(deps.db, request.principal)),
  );

  app.post(
    '/users',
    {
      schema: {
        operationId: 'platform.users.create',
        tags,
        summary: 'Add a user to the organization (admins only)',
        body: CreateUserSchema,
        response: { 201: PlatformEnvelopeSchema(UserSchema), ...platformErrorResponses([400, 403, 409]) },
      },
    },
    async (request, reply) => reply.code(201).send(ok(await createUser(deps, request.principal, request.body))),
  );

  app.get(
    '/users/list',
    {
      schema: {
        operationId: 'platform.users.list',
        tags,
        summary: "The organization's users, oldest first",
        description:
          'Ordered by creation time, then id. Page by `page` (0-based) or by `cursor` (the `nextCursor` of the page before), not both.',
        querystring: ListUsersQuerySchema,
        response: { 200: PlatformListEnvelopeSchema(Type.Array(UserSchema)), ...platformErrorResponses([400]) },
      },
    },
    async (request) => list(await listOrganizationUsers(deps.db, request.principal, request.query)),
  );

  app.get(
    '/users/:userId',
    {
      schema: {
        operationId: 'platform.users.get',
        summary: 'One user of the organization',
        tags,
        params: UserIdParamsSchema,
        response: { 200: PlatformEnvelopeSchema(UserSchema), ...platformErrorResponses([400, 404]) },
      },
    },
    async (request) => ok(await getUser(deps.db, request.principal, request.params.userId)),
  );

  app.patch(
    '/users/:userId',
    {
      schema: {
        operationId: 'platform.users.update',
        tags,
        summary:
          'Change name, availability, capacity or timezone (admins, or the user themself); change the role, disable or enable (admins)',
        description:
          "`disabled: true` ends the user's sessions at once, voids its open invitation or reset link, and refuses its " +
          'sign-in and its API keys, at once, until `disabled: false`. Admins cannot disable themselves. ' +
          '`userType` changes the role, at once for its sessions and keys. A change that would leave the organization without an enabled admin (the last admin ' +
          'made a member or disabled) is refused with 400.',
        params: UserIdParamsSchema,
        body: UpdateUserSchema,
        response: { 200: PlatformEnvelopeSchema(UserSchema), ...platformErrorResponses([400, 403, 404]) },
      },
    },
    async (request) => ok(await updateUserProfile(deps, request.principal, request.params.userId, request.body)),
  );
}

/** A user's API keys: issue, list, revoke. */
function registerApiKeyRoutes(app: TypeBoxApp, deps: AppDeps): void {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  const list = <T>(page: { items: T; nextCursor: string | null }) =>
    platformListEnvelope(deps.clock, page.items, page.nextCursor);

  app.post(
    '/users/:userId/api-keys',
    {
      schema: {
        operationId: 'platform.users.createApiKey',
        tags,
        summary: 'Issue an API key for a user (admins, or the user themself); the key is shown only in this answer',
        params: UserIdParamsSchema,
        // Optional: a POST without a body (validated as null) issues a key without a name.
        body: Type.Union([Type.Null(), CreateApiKeySchema]),
        response: { 201: PlatformEnvelopeSchema(IssuedApiKeySchema), ...platformErrorResponses([400, 403, 404]) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(ok(await createUserApiKey(deps, request.principal, request.params.userId, request.body ?? {}))),
  );

  app.get(
    '/users/:userId/api-keys',
    {
      schema: {
        operationId: 'platform.users.listApiKeys',
        tags,
        summary: "A user's keys by prefix (admins, or the user themself)",
        description: 'Oldest first (then by id), `limit` at a time; `cursor` takes the `nextCursor` of the page before.',
        params: UserIdParamsSchema,
        querystring: ListApiKeysQuerySchema,
        response: {
          200: PlatformListEnvelopeSchema(Type.Array(ApiKeySummarySchema)),
          ...platformErrorResponses([400, 403, 404]),
        },
      },
    },
    async (request) => list(await listUserApiKeys(deps.db, request.principal, request.params.userId, request.query)),
  );

  app.delete(
    '/users/:userId/api-keys/:prefix',
    {
      schema: {
        operationId: 'platform.users.revokeApiKey',
        tags,
        summary: 'Revoke a key; it stops working at once',
        params: ApiKeyParamsSchema,
        response: {
          200: PlatformEnvelopeSchema(Type.Object({ prefix: Type.String(), revokedAt: Type.String({ format: 'date-time' }) })),
          ...platformErrorResponses([400, 403, 404]),
        },
      },
    },
    async (request) => ok(await revokeUserApiKey(deps, request.principal, request.params.userId, request.params.prefix)),
  );
}
