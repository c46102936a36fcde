import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import {
  PlatformEnvelopeSchema,
  PlatformListEnvelopeSchema,
  platformEnvelope,
  platformErrorResponses,
  platformListEnvelope,
} from '../platform.envelope.js';
import {
  CreateMailboxSchema,
  ListMailboxesQuerySchema,
  MailboxParamsSchema,
  MailboxSchema,
  UpdateMailboxSchema,
} from './mailbox.schemas.js';
import { createMailbox, getMailbox, listMailboxesOf, removeMailbox, updateMailboxFields } from './mailbox.service.js';
import { mailboxSetupRoutes } from './mailbox-setup.routes.js';
import { mailboxVerificationRoutes } from './mailbox-verification.routes.js';

/** The organization's support addresses: admins manage them, everyone may read them. */
export function mailboxRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  return async (app) => {
    await app.register(mailboxVerificationRoutes(deps));
    await app.register(mailboxSetupRoutes(deps));

    app.post(
      '/mailboxes',
      {
        schema: {
          operationId: 'platform.mailboxes.create',
          tags: ['mailboxes'],
          summary: 'Create a mailbox: a support address whose mail becomes tickets of a team; organization admins only',
          description:
            'The mailbox is unverified (it neither receives nor sends) until its address is proved: a link is emailed to it, ' +
            "or the organization verified the address's domain by DNS (then it is verified at once). 409 when the " +
            'organization has the address already, or another organization verified it. delivery imap needs imap ' +
            '(host, username, password); its host must be public unless OUTBOUND_ALLOWED_HOSTS names it.',
          body: CreateMailboxSchema,
          response: { 201: PlatformEnvelopeSchema(MailboxSchema), ...platformErrorResponses([400, 403, 404, 409]) },
        },
      },
      async (request, reply) => reply.code(201).send(ok(await createMailbox(deps, request.principal, request.body))),
    );

    app.get(
      '/mailboxes',
      {
        schema: {
          operationId: 'platform.mailboxes.list',
          tags: ['mailboxes'],
          summary: "The organization's mailboxes, by address",
          description: 'Page by `page` (0-based) or by `cursor` (the `nextCursor` of the page before), not both.',
          querystring: ListMailboxesQuerySchema,
          response: { 200: PlatformListEnvelopeSchema(Type.Array(MailboxSchema)), ...platformErrorResponses([400]) },
        },
      },
      async (request) => {
        const page = await listMailboxesOf(deps.db, request.principal, request.query);
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );

    app.get(
      '/mailboxes/:id',
      {
        schema: {
          operationId: 'platform.mailboxes.get',
          tags: ['mailboxes'],
          summary: 'A mailbox, with the state of its IMAP polling',
          params: MailboxParamsSchema,
          response: { 200: PlatformEnvelopeSchema(MailboxSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => ok(await getMailbox(deps.db, request.principal, request.params.id)),
    );

    app.patch(
      '/mailboxes/:id',
      {
        schema: {
          operationId: 'platform.mailboxes.update',
          tags: ['mailboxes'],
          summary: 'Change a mailbox; organization admins only',
          description:
            'Changes only the fields sent. A new address is unverified again and gets a new link (or is verified by its ' +
            "domain's record). A new IMAP host or username needs the password again; delivery smtp drops the IMAP settings.",
          params: MailboxParamsSchema,
          body: UpdateMailboxSchema,
          response: { 200: PlatformEnvelopeSchema(MailboxSchema), ...platformErrorResponses([400, 403, 404, 409]) },
        },
      },
      async (request) => ok(await updateMailboxFields(deps, request.principal, request.params.id, request.body)),
    );

    app.delete(
      '/mailboxes/:id',
      {
        schema: {
          operationId: 'platform.mailboxes.delete',
          tags: ['mailboxes'],
          summary: 'Delete a mailbox; organization admins only',
          description: 'Its address takes no more mail; the tickets and messages it brought stay. Answers the deleted mailbox.',
          params: MailboxParamsSchema,
          response: { 200: PlatformEnvelopeSchema(MailboxSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => ok(await removeMailbox(deps, request.principal, request.params.id)),
    );
  };
}
