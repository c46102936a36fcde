import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { checkOrigin, clearSessionCookies, sessionTokenOf, setSessionCookies } from '../../http/session-auth.js';
import type { TypeBoxApp } from '../../http/typebox-app.js';
import { AppError } from '../../lib/errors.js';
import { csrfTokenFor } from '../../lib/secret-token.js';
import {
  PlatformEnvelopeSchema,
  PlatformListEnvelopeSchema,
  platformEnvelope,
  platformErrorResponses,
  platformListEnvelope,
} from '../platform.envelope.js';
import { UserIdParamsSchema } from '../users/user.schemas.js';
import {
  CurrentSessionSchema,
  InvitationSchema,
  ListSessionsQuerySchema,
  PasswordResetRequestedSchema,
  PasswordResetRequestSchema,
  SessionParamsSchema,
  SessionSchema,
  SetPasswordWithTokenSchema,
  SignedInSchema,
  SignedOutSchema,
  SignInSchema,
  UserSessionParamsSchema,
} from './auth.schemas.js';
import { acceptInvitation, confirmPasswordReset, inviteUser, requestPasswordReset } from './auth-token.service.js';
import {
  type ClientInfo,
  getCurrentSession,
  listSessions,
  listSessionsOfUser,
  revokeSession,
  revokeSessionOfUser,
  type SignInAttempts,
  signIn,
  signOut,
} from './session.service.js';

const tags = ['auth'];

/**
 * Sign-in, sessions, invitations and password resets. The routes that take a password or a link
 * are public (no key, no cookie) and refuse a cross-site `Origin`, so another site cannot sign a
 * browser in to an account of its choosing.
 */
export function authRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const helpers = authHelpersOf(deps);
  return async (app) => {
    registerSignInRoutes(app, deps, helpers);
    registerSessionRoutes(app, deps, helpers);
    registerUserSessionRoutes(app, deps, helpers);
    registerInvitationRoutes(app, deps, helpers);
    registerPasswordResetRoutes(app, deps, helpers);
  };
}

/** What the auth routes share: the envelope, the Origin check, the client's description, a new session's answer, sign-in attempts. */
function authHelpersOf(deps: AppDeps) {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  const sameOrigin = async (request: FastifyRequest) => checkOrigin(request, deps.config);
  const clientOf = (request: FastifyRequest): ClientInfo => ({ userAgent: request.headers['user-agent'], ipAddress: request.ip });
  /** Answers a new session: its cookies, and the same CSRF token in the body for the console's convenience. */
  const signedIn = <Answer extends { session: { expiresAt: string } }>(
    request: FastifyRequest,
    reply: FastifyReply,
    started: { token: string; answer: Answer },
  ) => {
    setSessionCookies(reply, request, deps.config, {
      token: started.token,
      expiresAt: started.answer.session.expiresAt,
      now: deps.clock.now(),
    });
    return ok({ ...started.answer, csrfToken: csrfTokenFor(started.token) });
  };
  const attemptsOf = (request: FastifyRequest, reply: FastifyReply, email: string): SignInAttempts => {
    let counted: Awaited<ReturnType<typeof deps.limits.countSignInAttempt>> | undefined;
    return {
      count: async () => {
        counted = await deps.limits.countSignInAttempt(request, email);
        if (counted.exceeded) {
          reply.header('retry-after', String(counted.retryAfterSeconds));
          throw new AppError({ code: 'RATE_LIMITED', message: 'Too many failed sign-ins; retry later' });
        }
      },
      giveBack: async () => counted?.giveBack(),
    };
  };
  return { ok, sameOrigin, clientOf, signedIn, attemptsOf };
}

type AuthHelpers = ReturnType<typeof authHelpersOf>;

/** Signing in and out, and the session the caller holds. */
function registerSignInRoutes(app: TypeBoxApp, deps: AppDeps, helpers: AuthHelpers): void {
  const { ok, sameOrigin, clientOf, signedIn, attemptsOf } = helpers;

  app.post(
    '/auth/login',
    {
      config: { public: true },
      preHandler: sameOrigin,
      schema: {
        operationId: 'platform.auth.login',
        tags,
        summary: 'Sign in with email and password: sets the session cookie',
        description:
          'Answers the user, the organization, the session and its CSRF token, and sets two cookies: `sb_session` (HttpOnly) ' +
          'and `sb_csrf`. A wrong password and an unknown email get the same 401. Failed sign-ins are limited per client ' +
          'address and per email (429 with retry-after).',
        body: SignInSchema,
        response: { 200: PlatformEnvelopeSchema(SignedInSchema), ...platformErrorResponses([400, 403, 409, 429]) },
      },
    },
    async (request, reply) =>
      signedIn(
        request,
        reply,
        await signIn(deps, attemptsOf(request, reply, request.body.email), request.body, clientOf(request)),
      ),
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        operationId: 'platform.auth.logout',
        tags,
        summary: 'Sign out: ends the session of the request and clears its cookies',
        response: { 200: PlatformEnvelopeSchema(SignedOutSchema), ...platformErrorResponses([403]) },
      },
    },
    async (request, reply) => {
      const signedOut = await signOut(deps.db, request.principal);
      if (signedOut.sessionId) {
        clearSessionCookies(reply, request, deps.config);
      }
      return ok(signedOut);
    },
  );

  app.get(
    '/auth/session',
    {
      schema: {
        operationId: 'platform.auth.session',
        tags,
        summary: 'The signed-in user, organization and session, with the CSRF token',
        description: 'For a request made with an API key, `session` and `csrfToken` are null.',
        response: { 200: PlatformEnvelopeSchema(CurrentSessionSchema), ...platformErrorResponses([]) },
      },
    },
    async (request) => {
      const token = request.principal.sessionId ? sessionTokenOf(request) : undefined;
      return ok({ ...(await getCurrentSession(deps, request.principal)), csrfToken: token ? csrfTokenFor(token) : null });
    },
  );
}

/** The caller's sessions: listed, one ended. */
function registerSessionRoutes(app: TypeBoxApp, deps: AppDeps, helpers: AuthHelpers): void {
  const { ok } = helpers;

  app.get(
    '/auth/sessions',
    {
      schema: {
        operationId: 'platform.auth.listSessions',
        tags,
        summary: "The caller's sessions still in force, newest first, the current one marked",
        description: 'Newest first (then by id), `limit` at a time; `cursor` takes the `nextCursor` of the page before.',
        querystring: ListSessionsQuerySchema,
        response: { 200: PlatformListEnvelopeSchema(Type.Array(SessionSchema)), ...platformErrorResponses([400]) },
      },
    },
    async (request) => {
      const page = await listSessions(deps, request.principal, request.query);
      return platformListEnvelope(deps.clock, page.items, page.nextCursor);
    },
  );

  app.delete(
    '/auth/sessions/:sessionId',
    {
      schema: {
        operationId: 'platform.auth.revokeSession',
        tags,
        summary: "End one of the caller's sessions at once (the current one signs out)",
        params: SessionParamsSchema,
        response: { 200: PlatformEnvelopeSchema(SessionSchema), ...platformErrorResponses([400, 403, 404]) },
      },
    },
    async (request, reply) => {
      const revoked = await revokeSession(deps.db, request.principal, request.params.sessionId);
      if (revoked.current) {
        clearSessionCookies(reply, request, deps.config);
      }
      return ok(revoked);
    },
  );
}

/** A user's sessions as an admin sees them: listed, one ended (signing that browser out at once). */
function registerUserSessionRoutes(app: TypeBoxApp, deps: AppDeps, helpers: AuthHelpers): void {
  const { ok } = helpers;

  app.get(
    '/users/:userId/sessions',
    {
      schema: {
        operationId: 'platform.users.listSessions',
        tags: ['users'],
        summary: "A user's sessions still in force, newest first (admins only)",
        description: 'Newest first (then by id), `limit` at a time; `cursor` takes the `nextCursor` of the page before.',
        params: UserIdParamsSchema,
        querystring: ListSessionsQuerySchema,
        response: { 200: PlatformListEnvelopeSchema(Type.Array(SessionSchema)), ...platformErrorResponses([400, 403, 404]) },
      },
    },
    async (request) => {
      const page = await listSessionsOfUser(deps, request.principal, request.params.userId, request.query);
      return platformListEnvelope(deps.clock, page.items, page.nextCursor);
    },
  );

  app.delete(
    '/users/:userId/sessions/:sessionId',
    {
      schema: {
        operationId: 'platform.users.revokeSession',
        tags: ['users'],
        summary: "End one of a user's sessions at once (admins only); its next request is refused",
        params: UserSessionParamsSchema,
        response: { 200: PlatformEnvelopeSchema(SessionSchema), ...platformErrorResponses([400, 403, 404]) },
      },
    },
    async (request, reply) => {
      const { userId, sessionId } = request.params;
      const revoked = await revokeSessionOfUser(deps.db, request.principal, userId, sessionId);
      if (revoked.current) {
        clearSessionCookies(reply, request, deps.config);
      }
      return ok(revoked);
    },
  );
}

/** Invitations: sent to a user, accepted with a password. */
function registerInvitationRoutes(app: TypeBoxApp, deps: AppDeps, helpers: AuthHelpers): void {
  const { ok, sameOrigin, clientOf, signedIn } = helpers;

  app.post(
    '/users/:userId/invite',
    {
      schema: {
        operationId: 'platform.users.invite',
        tags: ['users'],
        summary: 'Email a user a link to choose a password and sign in (admins only)',
        description:
          'The link (PUBLIC_BASE_URL/app/accept-invite?token=…) works once, for 7 days; a newer invitation or reset link ' +
          'replaces it. A disabled user cannot be invited (409).',
        params: UserIdParamsSchema,
        response: { 201: PlatformEnvelopeSchema(InvitationSchema), ...platformErrorResponses([400, 403, 404, 409]) },
      },
    },
    async (request, reply) => reply.code(201).send(ok(await inviteUser(deps, request.principal, request.params.userId))),
  );

  app.post(
    '/auth/invitations/accept',
    {
      config: { public: true },
      preHandler: sameOrigin,
      schema: {
        operationId: 'platform.auth.acceptInvitation',
        tags,
        summary: "Choose a password with an invitation link's token, and sign in",
        description: 'Sets the session cookies as sign-in does. The link works once; an expired, used or replaced one is a 400.',
        body: SetPasswordWithTokenSchema,
        response: { 200: PlatformEnvelopeSchema(SignedInSchema), ...platformErrorResponses([400, 403]) },
      },
    },
    async (request, reply) => signedIn(request, reply, await acceptInvitation(deps, request.body, clientOf(request))),
  );
}

/** Password resets: asked for by email, confirmed with a new password. */
function registerPasswordResetRoutes(app: TypeBoxApp, deps: AppDeps, helpers: AuthHelpers): void {
  const { ok, sameOrigin, clientOf, signedIn } = helpers;

  app.post(
    '/auth/password-reset',
    {
      config: { public: true },
      preHandler: sameOrigin,
      schema: {
        operationId: 'platform.auth.requestPasswordReset',
        tags,
        summary: 'Email a password-reset link',
        description:
          'Answers the same whether or not the address belongs to someone who can sign in. The link ' +
          '(PUBLIC_BASE_URL/app/reset-password?token=…) works once, for an hour. Requests are limited per client address and per email.',
        body: PasswordResetRequestSchema,
        response: { 202: PlatformEnvelopeSchema(PasswordResetRequestedSchema), ...platformErrorResponses([400, 429]) },
      },
    },
    async (request, reply) => {
      const verdict = await deps.limits.countPasswordResetRequest(request, request.body.email);
      if (verdict.exceeded) {
        reply.header('retry-after', String(verdict.retryAfterSeconds));
        throw new AppError({ code: 'RATE_LIMITED', message: 'Too many password-reset requests; retry later' });
      }
      await requestPasswordReset(deps, request.body.email);
      return reply.code(202).send(ok({ email: request.body.email }));
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      config: { public: true },
      preHandler: sameOrigin,
      schema: {
        operationId: 'platform.auth.confirmPasswordReset',
        tags,
        summary: "Choose a new password with a reset link's token, and sign in",
        description: "Ends the user's other sessions and sets the session cookies as sign-in does. The link works once.",
        body: SetPasswordWithTokenSchema,
        response: { 200: PlatformEnvelopeSchema(SignedInSchema), ...platformErrorResponses([400, 403]) },
      },
    },
    async (request, reply) => signedIn(request, reply, await confirmPasswordReset(deps, request.body, clientOf(request))),
  );
}
