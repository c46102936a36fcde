import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import { PLAIN_PAGE_HEADERS } from '../../lib/plain-page.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import {
  ConfirmVerificationBodySchema,
  MailboxParamsSchema,
  MailboxSchema,
  VerificationPageQuerySchema,
  VerificationPageSchema,
} from './mailbox.schemas.js';
import { getMailbox } from './mailbox.service.js';
import { createTxtLookup, type TxtLookup } from './mailbox-dns.js';
import { renderVerificationPage, type VerificationPage } from './mailbox-verification.page.js';
import {
  checkDomainRecord,
  confirmVerificationLink,
  describeVerificationLink,
  resendVerificationLink,
  VERIFICATION_PAGE_PATH,
} from './mailbox-verification.service.js';

const FORM = 'application/x-www-form-urlencoded';
/** A form post is a few hundred bytes: the token and nothing else. */
const FORM_LIMIT_BYTES = 4096;

const pageResponses = {
  content: { 'text/html': { schema: VerificationPageSchema } },
};

function sendPage(reply: FastifyReply, page: VerificationPage) {
  return reply.code(page.status).headers(PLAIN_PAGE_HEADERS).send(renderVerificationPage(page));
}

/**
 * Proving a mailbox's address: admins ask for a new link or a DNS check; the link opens a public
 * page, where the person reading the address's mail confirms with a button (a GET never verifies:
 * mail scanners open links on their own).
 */
export function mailboxVerificationRoutes(deps: AppDeps, options: { lookupTxt?: TxtLookup } = {}): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  const lookupTxt = options.lookupTxt ?? createTxtLookup(deps.config);
  return async (app) => {
    // This plugin's own: the page's form is the only urlencoded body the platform takes.
    app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    app.post(
      '/mailboxes/:id/verification/link',
      {
        schema: {
          operationId: 'platform.mailboxes.sendVerificationLink',
          tags: ['mailboxes'],
          summary: "Email a new verification link to an unverified mailbox's address; organization admins only",
          description:
            'The link works once, for 3 days; an older open link stops working. At most 5 links a day go to one address ' +
            '(429 with retry-after past that). 409 when the mailbox is verified, or another organization verified the address.',
          params: MailboxParamsSchema,
          response: { 200: PlatformEnvelopeSchema(MailboxSchema), ...platformErrorResponses([400, 403, 404, 409, 429]) },
        },
      },
      async (request, reply) => {
        const limited = await resendVerificationLink(deps, request.principal, request.params.id);
        if (limited) {
          reply.header('retry-after', String(limited.retryAfterSeconds));
          throw new AppError({ code: 'RATE_LIMITED', message: 'Too many verification links to this address today; retry later' });
        }
        return ok(await getMailbox(deps.db, request.principal, request.params.id));
      },
    );

    app.post(
      '/mailboxes/:id/verification/dns',
      {
        schema: {
          operationId: 'platform.mailboxes.checkVerificationRecord',
          tags: ['mailboxes'],
          summary: "Verify a mailbox by its domain's TXT record; organization admins only",
          description:
            'Looks up verification.dnsRecord (TXT _switchboard.<domain> = switchboard-verification=<token>). Found: the ' +
            'domain is verified for the organization, with every unverified mailbox of the organization on it, and mailboxes ' +
            'made on it later are verified at once. 422 when the record is not found, 502 when the lookup fails, 409 when ' +
            'another organization verified the address. A verified mailbox is answered as it is.',
          params: MailboxParamsSchema,
          response: { 200: PlatformEnvelopeSchema(MailboxSchema), ...platformErrorResponses([400, 403, 404, 409, 422, 502]) },
        },
      },
      async (request) => {
        await checkDomainRecord({ ...deps, lookupTxt }, request.principal, request.params.id);
        return ok(await getMailbox(deps.db, request.principal, request.params.id));
      },
    );

    app.get(
      VERIFICATION_PAGE_PATH.replace(/^\/v1/, ''),
      {
        // The token authenticates: whoever reads the address's mail opens the link, with no key.
        config: { public: true },
        schema: {
          operationId: 'platform.mailboxes.verificationPage',
          tags: ['mailboxes'],
          summary: 'The page a verification link opens (HTML): what confirming does, with a confirm button',
          description: 'Changes nothing. 404 for an unknown token, 410 for a used, expired or replaced one.',
          querystring: VerificationPageQuerySchema,
          response: {
            200: pageResponses,
            404: pageResponses,
            409: pageResponses,
            410: pageResponses,
            ...platformErrorResponses([400]),
          },
        },
      },
      async (request, reply) => sendPage(reply, await describeVerificationLink(deps, request.query.token)),
    );

    app.post(
      VERIFICATION_PAGE_PATH.replace(/^\/v1/, ''),
      {
        config: { public: true },
        schema: {
          operationId: 'platform.mailboxes.confirmVerification',
          tags: ['mailboxes'],
          summary: "The verification page's confirm button (form post): verifies the mailbox, once",
          description:
            "Takes the page's form, application/x-www-form-urlencoded `token=…` (other bodies are refused in the " +
            "platform's error shape, 400 or 415). Answers an HTML page: 200 verified, 404 unknown token, 409 the address " +
            'is verified by another organization, 410 a used, expired or replaced link, or a mailbox changed or deleted since.',
          body: ConfirmVerificationBodySchema,
          response: {
            200: pageResponses,
            404: pageResponses,
            409: pageResponses,
            410: pageResponses,
            ...platformErrorResponses([400, 415]),
          },
        },
      },
      async (request, reply) => {
        // A person presses the page's button; an API client has nothing to confirm with JSON.
        if ((request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() !== FORM) {
          throw new AppError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: `Send the verification page's form (${FORM})` });
        }
        return sendPage(reply, await confirmVerificationLink(deps, request.body.token));
      },
    );
  };
}
