import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PagedArraySchema, sendPage } from '../../http/pagination.js';
import { DeletionResultSchema, deletionResult } from '../accounts/account.schemas.js';
import { platformErrorResponses } from '../platform.envelope.js';
import {
  ContactIdParamsSchema,
  ContactSchema,
  CreateContactSchema,
  ListContactsQuerySchema,
  UpdateContactSchema,
} from './customer-contact.schemas.js';
import { createContact, deleteContact, getContact, listContactsOf, updateContactFields } from './customer-contact.service.js';

const tags = ['contacts'];

/** Customer contacts, answered without an envelope as upstream does; the delete is contract endpoint 8. */
export function customerContactRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/accounts/contacts',
      {
        schema: {
          operationId: 'platform.accounts.contacts.create',
          tags,
          summary: 'Create a customer contact; the email is unique per organization, case-insensitively',
          body: CreateContactSchema,
          response: { 201: ContactSchema, ...platformErrorResponses([400, 404, 409]) },
        },
      },
      async (request, reply) => reply.code(201).send(await createContact(deps, request.principal, request.body)),
    );

    app.get(
      '/accounts/contacts',
      {
        schema: {
          operationId: 'platform.accounts.contacts.list',
          tags,
          summary: 'Live contacts, oldest first, optionally of one account; page is 0-based',
          description:
            "Ordered by creation time, then id. Page by `page` (0-based) or by `cursor`, not both: the next page's " +
            'cursor is in the `x-next-cursor` header, absent on the last page.',
          querystring: ListContactsQuerySchema,
          response: { 200: PagedArraySchema(ContactSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request, reply) => sendPage(reply, await listContactsOf(deps.db, request.principal, request.query)),
    );

    app.get(
      '/accounts/contacts/:contactId',
      {
        schema: {
          operationId: 'platform.accounts.contacts.get',
          summary: 'One customer contact',
          tags,
          params: ContactIdParamsSchema,
          response: { 200: ContactSchema, ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => getContact(deps.db, request.principal, request.params.contactId),
    );

    app.put(
      '/accounts/contacts/:contactId',
      {
        schema: {
          operationId: 'platform.accounts.contacts.update',
          tags,
          summary: "Change the fields sent; accountIds replaces the contact's accounts",
          params: ContactIdParamsSchema,
          body: UpdateContactSchema,
          response: { 200: ContactSchema, ...platformErrorResponses([400, 404, 409]) },
        },
      },
      async (request) => updateContactFields(deps, request.principal, request.params.contactId, request.body),
    );

    const deleteSchema = {
      operationId: 'platform.accounts.contacts.delete',
      tags,
      summary: 'Delete a customer contact; its tickets and comments keep their history',
      response: { 200: DeletionResultSchema, ...platformErrorResponses([400, 404]) },
    };
    // The contract's 500 for this endpoint reads `Internal server error`.
    const config = { faultMessage: 'Internal server error' };
    app.delete(
      '/accounts/contacts/:contactId',
      { config, schema: { ...deleteSchema, params: ContactIdParamsSchema } },
      async (request) => {
        await deleteContact(deps, request.principal, request.params.contactId);
        return deletionResult('Contact deleted successfully');
      },
    );
    // Without the id segment the request would reach `/accounts/:id`; it is the contract's 400 instead.
    app.delete(
      '/accounts/contacts',
      { config, schema: { ...deleteSchema, operationId: 'platform.accounts.contacts.deleteWithoutId', hide: true } },
      async (request) => {
        await deleteContact(deps, request.principal, undefined);
      },
    );
    app.put(
      '/accounts/contacts',
      {
        schema: {
          operationId: 'platform.accounts.contacts.updateWithoutId',
          hide: true,
          response: platformErrorResponses([400]),
        },
      },
      async (request) => {
        await updateContactFields(deps, request.principal, undefined, {});
      },
    );
  };
}
