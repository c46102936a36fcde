import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import {
  MailboxDnsSetupSchema,
  MailboxParamsSchema,
  MailboxTestEmailSchema,
  SendMailboxTestEmailSchema,
} from './mailbox.schemas.js';
import { getMailboxDnsSetup } from './mailbox-dns-setup.js';
import { sendMailboxTestEmail } from './mailbox-test-email.service.js';

/** Setting an address up: the DNS records it needs here, and a test email once it is verified. */
export function mailboxSetupRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  return async (app) => {
    app.get(
      '/mailboxes/:id/dns',
      {
        schema: {
          operationId: 'platform.mailboxes.dns',
          tags: ['mailboxes'],
          summary: "The DNS records that make a mailbox's address work with this instance; organization admins only",
          description:
            "From the instance's configuration: the MX (smtp mailboxes: the host of PUBLIC_BASE_URL), SPF for the " +
            'outgoing server (SMTP_URL), the DKIM key when the instance signs (DKIM_*), and the verification TXT while ' +
            'the address is unverified. `notes` says which records are not given, and why.',
          params: MailboxParamsSchema,
          response: { 200: PlatformEnvelopeSchema(MailboxDnsSetupSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => ok(await getMailboxDnsSetup(deps, request.principal, request.params.id)),
    );

    app.post(
      '/mailboxes/:id/test',
      {
        schema: {
          operationId: 'platform.mailboxes.sendTestEmail',
          tags: ['mailboxes'],
          summary: "Send a short test email from a verified mailbox's address; organization admins only",
          description:
            "Queued in the outbox and sent as every email is, from the mailbox's address, to `to` or else the caller's " +
            'own email; its delivery (and any failure) shows in GET /v1/outbox. Answers the queued message. 409 when ' +
            'the mailbox is not verified (it sends nothing until then).',
          params: MailboxParamsSchema,
          // Optional: no body sends the test to the caller.
          body: Type.Union([Type.Null(), SendMailboxTestEmailSchema]),
          response: { 201: PlatformEnvelopeSchema(MailboxTestEmailSchema), ...platformErrorResponses([400, 403, 404, 409]) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(ok(await sendMailboxTestEmail(deps, request.principal, request.params.id, request.body ?? {}))),
    );
  };
}
