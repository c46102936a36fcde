import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { agentsRoutes } from './agents/agents-routes';
import { ForgotPasswordPage } from './auth/ForgotPasswordPage';
import { SetPasswordPage } from './auth/SetPasswordPage';
import { SignInPage } from './auth/SignInPage';
import { sessionQuery } from './auth/session';
import { InboxPage } from './inbox/InboxPage';
import { parseInboxSearch } from './inbox/inbox-search';
import { parseArticleListSearch, parseNewArticleSearch } from './knowledge/articles/article-search';
import { parseReportSearch } from './reports/report-search';
import { settingsRoutes } from './settings/settings-routes';
import { AppShell } from './shell/AppShell';
import { RouteError } from './shell/RouteError';

interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  errorComponent: RouteError,
});

const tokenSearch = (search: Record<string, unknown>): { token?: string } =>
  typeof search.token === 'string' ? { token: search.token } : {};

/** Where to return after signing in, and why sign-in was asked for (`expired`). */
const signInSearch = (search: Record<string, unknown>): { redirect?: string; reason?: string } => ({
  ...(typeof search.redirect === 'string' ? { redirect: search.redirect } : {}),
  ...(typeof search.reason === 'string' ? { reason: search.reason } : {}),
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: signInSearch,
  component: SignInPage,
});

const acceptInviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/accept-invite',
  validateSearch: tokenSearch,
  component: () => <SetPasswordPage purpose="invitation" />,
});

const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password',
  validateSearch: tokenSearch,
  component: () => <SetPasswordPage purpose="reset" />,
});

const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
  component: ForgotPasswordPage,
});

/** Everything below needs a session: without one, sign in first and come back. */
const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  beforeLoad: async ({ context, location }) => {
    const session = await context.queryClient.ensureQueryData(sessionQuery);
    if (!session?.session) {
      throw redirect({ to: '/sign-in', search: { redirect: location.href } });
    }
  },
  component: AppShell,
});

const inboxRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/',
  validateSearch: parseInboxSearch,
  component: InboxPage,
});

const ticketRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/tickets/$ticketId',
  // The ticket page and its composer load when first opened, keeping the first load small.
  component: lazyRouteComponent(() => import('./ticket/TicketPage'), 'TicketPage'),
});

const reportsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/reports',
  validateSearch: parseReportSearch,
  // The reports, and uPlot with them, load when first opened.
  component: lazyRouteComponent(() => import('./reports/ReportsPage'), 'ReportsPage'),
});

const knowledgeRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/knowledge',
  // The Knowledge area loads when first opened.
  component: lazyRouteComponent(() => import('./knowledge/KnowledgePage'), 'KnowledgePage'),
});

const helpCenterRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/knowledge/$helpCenterId',
  component: lazyRouteComponent(() => import('./knowledge/HelpCenterPage'), 'HelpCenterPage'),
});

const articlesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/knowledge/$helpCenterId/articles',
  validateSearch: parseArticleListSearch,
  component: lazyRouteComponent(() => import('./knowledge/articles/ArticlesPage'), 'ArticlesPage'),
});

const newArticleRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/knowledge/$helpCenterId/articles/new',
  validateSearch: parseNewArticleSearch,
  component: lazyRouteComponent(() => import('./knowledge/articles/NewArticlePage'), 'NewArticlePage'),
});

const articleRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/knowledge/$helpCenterId/articles/$articleId',
  // The editor, and TipTap with it, loads when an article is first opened.
  component: lazyRouteComponent(() => import('./knowledge/articles/ArticleEditorPage'), 'ArticleEditorPage'),
});

const routeTree = rootRoute.addChildren([
  signInRoute,
  acceptInviteRoute,
  resetPasswordRoute,
  forgotPasswordRoute,
  signedInRoute.addChildren([
    inboxRoute,
    ticketRoute,
    reportsRoute,
    ...agentsRoutes(signedInRoute),
    knowledgeRoute,
    helpCenterRoute,
    articlesRoute,
    newArticleRoute,
    articleRoute,
    settingsRoutes(signedInRoute),
  ]),
]);

export function createConsoleRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    basepath: '/app',
    context: { queryClient },
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createConsoleRouter>;
  }
}
