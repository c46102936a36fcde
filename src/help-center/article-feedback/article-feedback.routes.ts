import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { HelpCenterListEnvelopeSchema, helpCenterErrorResponses, helpCenterListEnvelope } from '../help-center.envelope.js';
import {
  ArticleFeedbackParamsSchema,
  ArticleFeedbackSchema,
  ListArticleFeedbackQuerySchema,
} from './article-feedback.schemas.js';
import { listFeedbackOfArticle } from './article-feedback.service.js';

export function articleFeedbackRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/articles/:articleId/feedback',
      {
        schema: {
          operationId: 'helpCenter.articles.feedback.list',
          tags: ['articles'],
          summary: 'Readers\' answers to "Was this helpful?" about the article, with their comments, most recent first',
          params: ArticleFeedbackParamsSchema,
          querystring: ListArticleFeedbackQuerySchema,
          response: {
            200: HelpCenterListEnvelopeSchema(ArticleFeedbackSchema, 'Most recently given first (updatedAt, then id)'),
            ...helpCenterErrorResponses([400, 404]),
          },
        },
      },
      async (request) =>
        helpCenterListEnvelope(
          await listFeedbackOfArticle(deps.db, request.principal, request.params.articleId, request.query),
          'Article feedback retrieved',
        ),
    );
  };
}
