import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import { PLAIN_PAGE_HEADERS } from '../../lib/plain-page.js';
import { platformErrorResponses } from '../platform.envelope.js';
import { renderSurveyPage, type SurveyPage } from './satisfaction.page.js';
import { SurveyFormSchema, SurveyPageQuerySchema, SurveyPageSchema } from './satisfaction.schemas.js';
import { describeSurveyLink, submitSurveyForm } from './satisfaction-link.service.js';
import { SURVEY_PAGE_PATH } from './satisfaction-send.service.js';

const FORM = 'application/x-www-form-urlencoded';
/** The ticket, the token, the rating and a comment of at most 2,000 characters, encoded. */
const FORM_LIMIT_BYTES = 16_384;

const pageResponses = { content: { 'text/html': { schema: SurveyPageSchema } } };
const pages = { 200: pageResponses, 404: pageResponses, 410: pageResponses };

function sendPage(reply: FastifyReply, page: SurveyPage) {
  return reply.code(page.status).headers(PLAIN_PAGE_HEADERS).send(renderSurveyPage(page));
}

/** The page a survey's Good and Bad links open, and its form: public, the link's token authenticates. */
export function satisfactionPageRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    // This plugin's own: the page's form is urlencoded.
    app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    app.get(
      SURVEY_PAGE_PATH.replace(/^\/v1/, ''),
      {
        config: { public: true },
        schema: {
          operationId: 'platform.satisfaction.surveyPage',
          tags: ['satisfaction'],
          summary: "The page a survey's Good or Bad link opens (HTML): the rating form with that answer chosen",
          description:
            'Changes nothing (mail scanners open links on their own). 400 for an incomplete link, 404 for an unknown ' +
            "token or another ticket's, 410 once the ticket reopened or after 28 days.",
          querystring: SurveyPageQuerySchema,
          response: { ...pages, ...platformErrorResponses([400]) },
        },
      },
      async (request, reply) => sendPage(reply, await describeSurveyLink(deps, request.query)),
    );

    app.post(
      SURVEY_PAGE_PATH.replace(/^\/v1/, ''),
      {
        config: { public: true },
        schema: {
          operationId: 'platform.satisfaction.rate',
          tags: ['satisfaction'],
          summary: "The survey page's form (form post): records the rating and comment; may be sent again to change them",
          description:
            'Takes application/x-www-form-urlencoded `ticket`, `token`, `rating` (good or bad) and an optional `comment` ' +
            "(other bodies are refused in the platform's error shape, 415). Answers an HTML page: 200 recorded (and " +
            "`satisfaction.rated` in the event log), 400 no rating, 404 unknown token or another ticket's, 410 reopened or expired.",
          body: SurveyFormSchema,
          response: { ...pages, ...platformErrorResponses([400, 415]) },
        },
      },
      async (request, reply) => {
        if ((request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() !== FORM) {
          throw new AppError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: `Send the survey page's form (${FORM})` });
        }
        return sendPage(reply, await submitSurveyForm(deps, request.body));
      },
    );
  };
}
