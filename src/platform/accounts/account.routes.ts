import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PagedArraySchema, sendPage } from '../../http/pagination.js';
import { platformErrorResponses } from '../platform.envelope.js';
import {
  AccountIdParamsSchema,
  AccountSchema,
  CreateAccountSchema,
  DeletionResultSchema,
  deletionResult,
  ListAccountsQuerySchema,
  UpdateAccountSchema,
} from './account.schemas.js';
import { createAccount, deleteAccount, getAccount, listAccounts, updateAccount } from './account.service.js';

const tags = ['accounts'];

/**
 * Accounts, answered without an envelope as upstream does. `/accounts/:id` never captures the
 * static `/accounts/attributes`, `/accounts/contacts` and `/accounts/notes` routes: the router
 * prefers a static segment over a parameter whatever the registration order.
 */
export function accountRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/accounts',
      {
        schema: {
          operationId: 'platform.accounts.create',
          tags,
          summary: 'Create an account; attribute fields take an id or a value, absent ones the default',
          body: CreateAccountSchema,
          response: { 201: AccountSchema, ...platformErrorResponses([400, 409]) },
        },
      },
      async (request, reply) => reply.code(201).send(await createAccount(deps, request.principal, request.body)),
    );

    app.get(
      '/accounts',
      {
        schema: {
          operationId: 'platform.accounts.list',
          tags,
          summary: 'Live accounts, oldest first; page is 0-based',
          description:
            "Ordered by creation time, then id. Page by `page` (0-based) or by `cursor`, not both: the next page's " +
            'cursor is in the `x-next-cursor` header, absent on the last page.',
          querystring: ListAccountsQuerySchema,
          response: { 200: PagedArraySchema(AccountSchema), ...platformErrorResponses([400]) },
        },
      },
      async (request, reply) => sendPage(reply, await listAccounts(deps.db, request.principal, request.query)),
    );

    app.get(
      '/accounts/:id',
      {
        schema: {
          operationId: 'platform.accounts.get',
          summary: 'One account',
          tags,
          params: AccountIdParamsSchema,
          response: { 200: AccountSchema, ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => getAccount(deps.db, request.principal, request.params.id),
    );

    app.put(
      '/accounts/:id',
      {
        schema: {
          operationId: 'platform.accounts.update',
          tags,
          summary: 'Change the fields sent; customFieldValues are merged by fieldId',
          params: AccountIdParamsSchema,
          body: UpdateAccountSchema,
          response: { 200: AccountSchema, ...platformErrorResponses([400, 404, 409]) },
        },
      },
      async (request) => updateAccount(deps, request.principal, request.params.id, request.body),
    );

    app.delete(
      '/accounts/:id',
      {
        schema: {
          operationId: 'platform.accounts.delete',
          tags,
          summary: 'Soft-delete an account; its primary domain becomes free again',
          params: AccountIdParamsSchema,
          response: { 200: DeletionResultSchema, ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => {
        await deleteAccount(deps, request.principal, request.params.id);
        return deletionResult('Account deleted successfully');
      },
    );
  };
}
