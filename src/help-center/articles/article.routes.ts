import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import {
  HelpCenterEnvelopeSchema,
  HelpCenterListEnvelopeSchema,
  helpCenterEnvelope,
  helpCenterErrorResponses,
  helpCenterListEnvelope,
} from '../help-center.envelope.js';
import {
  ArticleIdParamsSchema,
  ArticleSchema,
  ArticleSearchHitSchema,
  CreateArticleSchema,
  ListArticlesQuerySchema,
  SearchArticlesQuerySchema,
  UpdateArticleSchema,
} from './article.schemas.js';
import {
  createArticle,
  deleteArticle,
  getArticle,
  listOrganizationArticles,
  publishArticle,
  searchArticles,
  unpublishArticle,
  updateArticleDraft,
} from './article.service.js';

const tags = ['articles'];
const one = HelpCenterEnvelopeSchema(ArticleSchema);

export function articleRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/articles',
      {
        schema: {
          operationId: 'helpCenter.articles.create',
          tags,
          summary: 'Create a draft article in a collection; the body as contentHtml or contentMarkdown',
          body: CreateArticleSchema,
          response: { 201: one, ...helpCenterErrorResponses([400, 404]) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(helpCenterEnvelope(await createArticle(deps, request.principal, request.body), 'Article created')),
    );

    app.get(
      '/articles',
      {
        schema: {
          operationId: 'helpCenter.articles.list',
          tags,
          summary: "A page of the organization's articles, lowest uid first; filters combine",
          querystring: ListArticlesQuerySchema,
          response: {
            200: HelpCenterListEnvelopeSchema(ArticleSchema, 'Lowest uid first (uid, then id)'),
            ...helpCenterErrorResponses([400, 404]),
          },
        },
      },
      async (request) =>
        helpCenterListEnvelope(await listOrganizationArticles(deps.db, request.principal, request.query), 'Articles retrieved'),
    );

    app.get(
      '/articles/search',
      {
        schema: {
          operationId: 'helpCenter.articles.search',
          tags,
          summary: 'Published articles ranked by relevance over title and body, with a highlighted excerpt',
          querystring: SearchArticlesQuerySchema,
          response: {
            200: HelpCenterEnvelopeSchema(Type.Array(ArticleSearchHitSchema)),
            ...helpCenterErrorResponses([400, 404]),
          },
        },
      },
      async (request) => helpCenterEnvelope(await searchArticles(deps.db, request.principal, request.query), 'Search results'),
    );

    app.get(
      '/articles/:id',
      {
        schema: {
          operationId: 'helpCenter.articles.get',
          summary: 'One article',
          tags,
          params: ArticleIdParamsSchema,
          response: { 200: one, ...helpCenterErrorResponses([400, 404]) },
        },
      },
      async (request) => helpCenterEnvelope(await getArticle(deps.db, request.principal, request.params.id), 'Article retrieved'),
    );

    app.patch(
      '/articles/:id',
      {
        schema: {
          operationId: 'helpCenter.articles.update',
          tags,
          summary: 'Edit the draft, tags (replaced) and collections (added, removed)',
          params: ArticleIdParamsSchema,
          body: UpdateArticleSchema,
          response: { 200: one, ...helpCenterErrorResponses([400, 404]) },
        },
      },
      async (request) =>
        helpCenterEnvelope(await updateArticleDraft(deps, request.principal, request.params.id, request.body), 'Article updated'),
    );

    app.post(
      '/articles/:id/publish',
      {
        schema: {
          operationId: 'helpCenter.articles.publish',
          tags,
          summary: 'Publish the draft as a new version, kept apart from later draft edits; makes it searchable',
          params: ArticleIdParamsSchema,
          response: { 200: one, ...helpCenterErrorResponses([400, 404]) },
        },
      },
      async (request) =>
        helpCenterEnvelope(await publishArticle(deps, request.principal, request.params.id), 'Article published'),
    );

    app.post(
      '/articles/:id/unpublish',
      {
        schema: {
          operationId: 'helpCenter.articles.unpublish',
          tags,
          summary: 'Withdraw the published version; the article is a draft again and leaves search',
          params: ArticleIdParamsSchema,
          response: { 200: one, ...helpCenterErrorResponses([400, 404]) },
        },
      },
      async (request) =>
        helpCenterEnvelope(await unpublishArticle(deps, request.principal, request.params.id), 'Article unpublished'),
    );

    app.delete(
      '/articles/:id',
      {
        schema: {
          operationId: 'helpCenter.articles.delete',
          tags,
          summary: 'Soft-delete an article: it leaves lists, collections and search',
          params: ArticleIdParamsSchema,
          response: { 200: one, ...helpCenterErrorResponses([400, 404]) },
        },
      },
      async (request) => helpCenterEnvelope(await deleteArticle(deps, request.principal, request.params.id), 'Article deleted'),
    );
  };
}
