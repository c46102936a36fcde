import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { parseCookies, serializeCookie } from '../../http/cookies.js';
import { looksLikeSecretToken } from '../../lib/secret-token.js';
import {
  type ContactSignInDeps,
  contactOfSession,
  endContactSession,
  normaliseSignInEmail,
  redeemSignInLink,
  requestSignInLink,
} from '../contact-sign-in/contact-sign-in.service.js';
import { returnPathWithin } from './return-path.js';
import { queryValue, type SiteDeps, siteContextOf } from './site.routes.js';
import { ANONYMOUS, type SiteHelpCenter, type SiteViewer } from './site.service.js';
import { sitePaths } from './site-address.js';
import { isCrossSite } from './site-forms.js';
import { renderSitePage, type SiteContext, sendPage } from './site-page.js';
import type { PageHead } from './views/layout.js';
import { MessageView } from './views/message.js';
import { CheckEmailView, ContinueSignInView, SignInLinkRefusedView, SignInView } from './views/sign-in.js';

/** What signing customer contacts in needs beyond the pages: the service's deps, and the published address. */
export type SiteSignInDeps = ContactSignInDeps & { config: Pick<Config, 'PUBLIC_BASE_URL'> };

/** The cookie of a contact's session: its random token (the database keeps the SHA-256). */
export const CONTACT_SESSION_COOKIE = 'hc_session';

type Params = { helpCenterSlug: string; token?: string };

const sessionTokenOf = (request: FastifyRequest) => parseCookies(request.headers.cookie).get(CONTACT_SESSION_COOKIE);

/**
 * The site's reader: the customer contact whose session cookie is good for this help center of
 * its organization, else anyone. A request without the cookie costs no query.
 */
export function contactViewerOf(deps: Pick<ContactSignInDeps, 'db' | 'clock'>) {
  return async (request: FastifyRequest, helpCenter: SiteHelpCenter): Promise<SiteViewer> => {
    const sessionToken = sessionTokenOf(request);
    if (!sessionToken) {
      return ANONYMOUS;
    }
    const contact = await contactOfSession(deps, {
      organizationId: helpCenter.organizationId,
      helpCenterId: helpCenter.id,
      sessionToken,
    });
    return contact ? { contact: { id: contact.contactId, email: contact.email, name: contact.name } } : ANONYMOUS;
  };
}

function setSessionCookie(reply: FastifyReply, request: FastifyRequest, value: string, maxAgeSeconds: number) {
  reply.header(
    'set-cookie',
    serializeCookie(CONTACT_SESSION_COOKIE, value, {
      maxAgeSeconds,
      httpOnly: true,
      secure: request.protocol === 'https',
      sameSite: 'Lax',
      path: '/',
    }),
  );
}

const formField = (request: FastifyRequest, name: string): string | undefined => {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * Sign-in pages stay out of search engines and caches; a link's token never leaves in a Referer,
 * which carries the origin only. Not `no-referrer`: with it, browsers send the pages' own form
 * posts with `Origin: null`, which the cross-site check refuses, so no one could sign in.
 */
const PRIVATE_PAGE = { 'cache-control': 'no-store', 'referrer-policy': 'strict-origin' };

const headOf = (context: SiteContext, title: string): PageHead => ({
  title: `${title} | ${context.helpCenter.name}`,
  description: null,
  canonicalPath: null,
  noindex: true,
});

async function sendSignInPage(reply: FastifyReply, context: SiteContext, title: string, body: JSX.Element, status = 200) {
  const page = await renderSitePage(context, headOf(context, title), body, { status, headerSearch: false });
  return sendPage(reply, page, PRIVATE_PAGE);
}

function sendCrossSiteRefusal(reply: FastifyReply, context: SiteContext) {
  const body = (
    <MessageView
      address={context.address}
      title="Request refused"
      paragraphs={['This form was sent from another site. Open the help center and try again from there.']}
    />
  );
  return sendSignInPage(reply, context, 'Request refused', body, 403);
}

/** The context of a form post of this site, or null when a page (404, 403) was already sent. */
async function formContext(deps: SiteDeps, signIn: SiteSignInDeps, request: FastifyRequest, reply: FastifyReply) {
  const context = await siteContextOf(deps, request, reply);
  if (context && isCrossSite(request, context, signIn.config)) {
    await sendCrossSiteRefusal(reply, context);
    return null;
  }
  return context;
}

const nextOf = (context: SiteContext, value: string | undefined) => returnPathWithin(context.address.base, value);

function signInForm(context: SiteContext, next: string | null, refused?: { email: string; error: string }) {
  return (
    <SignInView
      address={context.address}
      helpCenterName={context.helpCenter.name}
      next={next}
      email={refused?.email}
      error={refused?.error}
      protectedHelpCenter={context.helpCenter.isProtected}
    />
  );
}

/** Asking for a link: the form, and the same "check your email" answer for any well-formed address. */
function registerLinkRequestRoutes(app: FastifyInstance, deps: SiteDeps, signIn: SiteSignInDeps): void {
  app.get('/:helpCenterSlug/sign-in', async (request, reply) => {
    const context = await siteContextOf(deps, request, reply);
    if (!context) {
      return reply;
    }
    return sendSignInPage(reply, context, 'Sign in', signInForm(context, nextOf(context, queryValue(request, 'next'))));
  });

  app.post('/:helpCenterSlug/sign-in', async (request, reply) => {
    const context = await formContext(deps, signIn, request, reply);
    if (!context) {
      return reply;
    }
    const next = nextOf(context, formField(request, 'next'));
    const email = formField(request, 'email') ?? '';
    if (!normaliseSignInEmail(email)) {
      const error = email.trim() === '' ? 'Enter your email address.' : 'Enter a valid email address, like name@example.com.';
      const form = signInForm(context, next, { email: email.slice(0, 254), error });
      return sendSignInPage(reply, context, 'Sign in', form, 400);
    }
    await requestSignInLink(signIn, {
      organizationId: context.helpCenter.organizationId,
      helpCenter: context.helpCenter,
      email,
      linkBase: sitePaths.absolute(context.address, context.address.base),
      requestAddress: request.ip,
      ...(next ? { returnPath: next } : {}),
    });
    return sendSignInPage(reply, context, 'Check your email', <CheckEmailView address={context.address} next={next} />);
  });
}

/** The emailed link: a page with a Continue button (mail scanners open links), whose POST signs in. */
function registerLinkRoutes(app: FastifyInstance, deps: SiteDeps, signIn: SiteSignInDeps): void {
  const refused = (reply: FastifyReply, context: SiteContext) =>
    sendSignInPage(reply, context, 'Sign-in link refused', <SignInLinkRefusedView address={context.address} />, 400);

  app.get('/:helpCenterSlug/sign-in/:token', async (request, reply) => {
    const context = await siteContextOf(deps, request, reply);
    if (!context) {
      return reply;
    }
    const token = (request.params as Params).token ?? '';
    if (!looksLikeSecretToken(token)) {
      return refused(reply, context);
    }
    const body = (
      <ContinueSignInView
        address={context.address}
        helpCenterName={context.helpCenter.name}
        token={token}
        next={nextOf(context, queryValue(request, 'next'))}
      />
    );
    return sendSignInPage(reply, context, 'Sign in', body);
  });

  app.post('/:helpCenterSlug/sign-in/:token', async (request, reply) => {
    const context = await formContext(deps, signIn, request, reply);
    if (!context) {
      return reply;
    }
    const session = await redeemSignInLink(signIn, {
      organizationId: context.helpCenter.organizationId,
      helpCenterId: context.helpCenter.id,
      token: (request.params as Params).token ?? '',
    });
    if (!session) {
      return refused(reply, context);
    }
    const maxAgeSeconds = (Date.parse(session.expiresAt) - signIn.clock.now().getTime()) / 1000;
    setSessionCookie(reply, request, session.sessionToken, maxAgeSeconds);
    const to = nextOf(context, formField(request, 'next')) ?? sitePaths.home(context.address);
    return reply.header('cache-control', 'no-store').redirect(to, 303);
  });
}

/**
 * Customer contacts sign in with an emailed link and out again (issue 33, protected collections).
 * Every form post refuses another site's `Origin`, so no page elsewhere can sign a reader in to a
 * session of its choosing, or out.
 */
export function registerSiteSignInRoutes(app: FastifyInstance, deps: SiteDeps, signIn: SiteSignInDeps): void {
  registerLinkRequestRoutes(app, deps, signIn);
  registerLinkRoutes(app, deps, signIn);

  app.post('/:helpCenterSlug/sign-out', async (request, reply) => {
    const context = await formContext(deps, signIn, request, reply);
    if (!context) {
      return reply;
    }
    const sessionToken = sessionTokenOf(request);
    if (sessionToken) {
      await endContactSession(signIn, sessionToken);
    }
    setSessionCookie(reply, request, '', 0);
    return reply.header('cache-control', 'no-store').redirect(sitePaths.home(context.address), 303);
  });
}
