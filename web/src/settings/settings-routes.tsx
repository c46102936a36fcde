import { type AnyRoute, createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';

/**
 * The settings pages below /app/settings, each loaded when first opened so that the inbox's first
 * load carries none of them. One folder per area, mirroring the API's feature folders; an area's
 * own routes (a page per item) sit beside its list here.
 */
export function settingsRoutes<Parent extends AnyRoute>(parent: Parent) {
  const settings = createRoute({
    getParentRoute: () => parent,
    path: 'settings',
    component: lazyRouteComponent(() => import('./SettingsLayout'), 'SettingsLayout'),
  });
  const index = createRoute({
    getParentRoute: () => settings,
    path: '/',
    beforeLoad: () => {
      throw redirect({ to: '/settings/teams' });
    },
  });
  const teams = createRoute({
    getParentRoute: () => settings,
    path: 'teams',
    component: lazyRouteComponent(() => import('./teams/TeamsPage'), 'TeamsPage'),
  });
  const routing = createRoute({
    getParentRoute: () => settings,
    path: 'routing',
    // The team shown and the rule open in the builder, so that a team's rules can be linked.
    validateSearch: (search: Record<string, unknown>): { teamId?: string; rule?: string } => ({
      ...(typeof search.teamId === 'string' ? { teamId: search.teamId } : {}),
      ...(typeof search.rule === 'string' ? { rule: search.rule } : {}),
    }),
    component: lazyRouteComponent(() => import('./routing/RoutingPage'), 'RoutingPage'),
  });
  const customFields = createRoute({
    getParentRoute: () => settings,
    path: 'custom-fields',
    component: lazyRouteComponent(() => import('./custom-fields/CustomFieldsPage'), 'CustomFieldsPage'),
  });
  const accounts = createRoute({
    getParentRoute: () => settings,
    path: 'accounts',
    component: lazyRouteComponent(() => import('./accounts/AccountsPage'), 'AccountsPage'),
  });
  const contacts = createRoute({
    getParentRoute: () => settings,
    path: 'contacts',
    component: lazyRouteComponent(() => import('./contacts/ContactsPage'), 'ContactsPage'),
  });
  const users = createRoute({
    getParentRoute: () => settings,
    path: 'users',
    component: lazyRouteComponent(() => import('./users/UsersPage'), 'UsersPage'),
  });
  const apiKeys = createRoute({
    getParentRoute: () => settings,
    path: 'api-keys',
    component: lazyRouteComponent(() => import('./api-keys/ApiKeysPage'), 'ApiKeysPage'),
  });
  const mailboxes = createRoute({
    getParentRoute: () => settings,
    path: 'mailboxes',
    component: lazyRouteComponent(() => import('./mailboxes/MailboxesPage'), 'MailboxesPage'),
  });
  const webhooks = createRoute({
    getParentRoute: () => settings,
    path: 'webhooks',
    component: lazyRouteComponent(() => import('./webhooks/WebhooksPage'), 'WebhooksPage'),
  });
  const macros = createRoute({
    getParentRoute: () => settings,
    path: 'macros',
    component: lazyRouteComponent(() => import('./macros/MacrosPage'), 'MacrosPage'),
  });
  const views = createRoute({
    getParentRoute: () => settings,
    path: 'views',
    component: lazyRouteComponent(() => import('./views/ViewsPage'), 'ViewsPage'),
  });
  const notifications = createRoute({
    getParentRoute: () => settings,
    path: 'notifications',
    component: lazyRouteComponent(() => import('./notifications/NotificationsPage'), 'NotificationsPage'),
  });
  const configuration = createRoute({
    getParentRoute: () => settings,
    path: 'configuration',
    component: lazyRouteComponent(() => import('./configuration/ConfigurationPage'), 'ConfigurationPage'),
  });
  return settings.addChildren([
    index,
    teams,
    routing,
    customFields,
    accounts,
    contacts,
    users,
    apiKeys,
    mailboxes,
    webhooks,
    macros,
    views,
    notifications,
    configuration,
  ]);
}
