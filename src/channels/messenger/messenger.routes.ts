import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canonicalAddress, type SiteAddress, sitePaths } from '../../help-center/site/site-address.js';
import { siteAddressOf } from '../../help-center/site/site-deps.js';
import type { TypeBoxApp } from '../../http/typebox-app.js';
import { messengerErrorResponses, withRetryAfter } from './messenger.errors.js';
import {
  ArticleParamsSchema,
  ArticleSchema,
  ConfigSchema,
  HelpCenterSlugParamsSchema,
  IdentifyBodySchema,
  MeSchema,
  SearchQuerySchema,
  SearchSchema,
  VisitorTokenSchema,
} from './messenger.schemas.js';
import { readArticle, searchArticles } from './messenger-content.service.js';
import { bearerToken } from './messenger-request.js';
import {
  countNewVisitor,
  createVisitor,
  identifyVisitor,
  type MessengerDeps,
  optionalVisitor,
  requireVisitor,
  visitorAnswer,
} from './messenger-visitor.service.js';
import { isAllowedOrigin, type MessengerHelpCenter, requireEnabledWidget } from './messenger-widget.js';

export interface MessengerRouteDeps extends MessengerDeps {
  /** PUBLIC_BASE_URL, when set: the scheme of a custom domain's address. */
  publicBaseUrl: string | undefined;
}

const tags = ['messenger'];
const PUBLIC = { public: true };
const VISITOR: Record<string, string[]>[] = [{ visitorToken: [] }];
/** Reads anyone may make; a verified visitor's token shows more. */
const OPTIONAL_VISITOR: Record<string, string[]>[] = [{}, { visitorToken: [] }];

/**
 * Where the help center's public site is: its custom domain when it has one, else `/hc/{slug}` at
 * PUBLIC_BASE_URL (the panel is framed by another site, so the host it was asked on says less).
 */
function addressOf(deps: MessengerRouteDeps, request: FastifyRequest, helpCenter: MessengerHelpCenter): SiteAddress {
  const address = siteAddressOf(request, helpCenter.site, { publicBaseUrl: deps.publicBaseUrl });
  return address.canonical || !deps.publicBaseUrl ? address : { ...address, origin: deps.publicBaseUrl.replace(/\/+$/, '') };
}

/** `Access-Control-Allow-Origin` for the host pages the widget may be embedded in, and only them. */
function allowEmbeddingOrigin(request: FastifyRequest, reply: FastifyReply, helpCenter: MessengerHelpCenter): boolean {
  reply.header('vary', 'Origin');
  const origin = request.headers.origin;
  if (!isAllowedOrigin(helpCenter.widget, origin)) {
    return false;
  }
  reply.header('access-control-allow-origin', origin);
  return true;
}

/** The messenger's JSON API under `/widget/{slug}/api` (the contract of issue 34). */
export function messengerApiRoutes(deps: MessengerRouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    registerConfigRoutes(app, deps);
    registerVisitorRoutes(app, deps);
    registerContentRoutes(app, deps);
  };
}

function registerConfigRoutes(app: TypeBoxApp, deps: MessengerRouteDeps): void {
  app.get(
    '/:slug/api/config',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.config.get',
        tags,
        summary: "The widget's settings for the loader (CORS: only the widget's allowed origins may read it)",
        params: HelpCenterSlugParamsSchema,
        security: [],
        response: { 200: ConfigSchema, ...messengerErrorResponses([404]) },
      },
    },
    async (request, reply) => {
      const helpCenter = await requireEnabledWidget(deps.db, request.params.slug);
      allowEmbeddingOrigin(request, reply, helpCenter);
      const address = canonicalAddress(addressOf(deps, request, helpCenter));
      const { widget, site } = helpCenter;
      return {
        helpCenter: { name: site.name, slug: site.slug, siteUrl: sitePaths.absolute(address, sitePaths.home(address)) },
        widget: {
          greeting: widget.greeting,
          launcherColor: widget.launcherColor,
          position: widget.position,
          identityVerificationRequired: widget.identityVerificationRequired,
          chatAvailable: widget.agentId !== null,
          handoffAvailable: widget.agentId !== null && widget.handoffTeamId !== null,
        },
      };
    },
  );

  app.options(
    '/:slug/api/config',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.config.preflight',
        tags,
        summary: "CORS preflight of GET /config: allowed only for the widget's allowed origins",
        params: HelpCenterSlugParamsSchema,
        security: [],
        response: {
          204: { type: 'null', description: 'CORS headers when the origin is allowed' },
          ...messengerErrorResponses([404]),
        },
      },
    },
    async (request, reply) => {
      const helpCenter = await requireEnabledWidget(deps.db, request.params.slug);
      if (allowEmbeddingOrigin(request, reply, helpCenter)) {
        reply.headers({ 'access-control-allow-methods': 'GET', 'access-control-max-age': '600' });
      }
      return reply.code(204).send();
    },
  );
}

function registerVisitorRoutes(app: TypeBoxApp, deps: MessengerRouteDeps): void {
  app.post(
    '/:slug/api/visitors',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.visitors.create',
        tags,
        summary: 'A new anonymous visitor and its token (rate limited per client address: 429 with retry-after)',
        params: HelpCenterSlugParamsSchema,
        security: [],
        response: { 201: VisitorTokenSchema, ...messengerErrorResponses([404, 429]) },
      },
    },
    async (request, reply) => {
      const helpCenter = await requireEnabledWidget(deps.db, request.params.slug);
      await withRetryAfter(reply, () => countNewVisitor(deps, request.ip));
      return reply.code(201).send(await createVisitor(deps, helpCenter));
    },
  );

  app.post(
    '/:slug/api/identify',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.visitors.identify',
        tags,
        summary:
          "Verify the host's identity token and answer a verified visitor's token; with the current anonymous visitor's token, that visitor is kept",
        params: HelpCenterSlugParamsSchema,
        body: IdentifyBodySchema,
        security: OPTIONAL_VISITOR,
        response: { 200: VisitorTokenSchema, ...messengerErrorResponses([400, 404]) },
      },
    },
    async (request) => {
      const helpCenter = await requireEnabledWidget(deps.db, request.params.slug);
      return identifyVisitor(deps, helpCenter, { token: request.body.token, currentVisitorToken: bearerToken(request) });
    },
  );

  app.get(
    '/:slug/api/me',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.visitors.me',
        tags,
        summary: 'The visitor holding the token',
        params: HelpCenterSlugParamsSchema,
        security: VISITOR,
        response: { 200: MeSchema, ...messengerErrorResponses([404]) },
      },
    },
    async (request) => {
      const helpCenter = await requireEnabledWidget(deps.db, request.params.slug);
      return { visitor: visitorAnswer(await requireVisitor(deps, helpCenter, bearerToken(request))) };
    },
  );
}

function registerContentRoutes(app: TypeBoxApp, deps: MessengerRouteDeps): void {
  app.get(
    '/:slug/api/search',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.articles.search',
        tags,
        summary: "Full-text search of the help center's published articles, as the public site shows them to the visitor",
        params: HelpCenterSlugParamsSchema,
        querystring: SearchQuerySchema,
        security: OPTIONAL_VISITOR,
        response: { 200: SearchSchema, ...messengerErrorResponses([400, 404]) },
      },
    },
    async (request) => {
      const helpCenter = await requireEnabledWidget(deps.db, request.params.slug);
      const visitor = await optionalVisitor(deps, helpCenter, bearerToken(request));
      return searchArticles(deps.db, helpCenter, visitor, {
        q: request.query.q,
        page: request.query.page,
        address: addressOf(deps, request, helpCenter),
      });
    },
  );

  app.get(
    '/:slug/api/articles/:articleSlug',
    {
      config: PUBLIC,
      schema: {
        operationId: 'messenger.articles.get',
        tags,
        summary:
          'A published article the visitor may read (404 for a draft, a protected one for an anonymous visitor, or an unknown one)',
        params: ArticleParamsSchema,
        security: OPTIONAL_VISITOR,
        response: { 200: ArticleSchema, ...messengerErrorResponses([400, 404]) },
      },
    },
    async (request) => {
      const helpCenter = await requireEnabledWidget(deps.db, request.params.slug);
      const visitor = await optionalVisitor(deps, helpCenter, bearerToken(request));
      return readArticle(deps.db, helpCenter, visitor, {
        slug: request.params.articleSlug,
        address: addressOf(deps, request, helpCenter),
      });
    },
  );
}
