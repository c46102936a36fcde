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
  return settings.addChildren([
    index,
    ...teamAndRoutingRoutes(settings),
    ...peopleRoutes(settings),
    ...channelAndAutomationRoutes(settings),
  ]);
}

/** The helpdesk's shape: teams, their routing, the SLA policies, and the fields tickets carry. */
function teamAndRoutingRoutes<Settings extends AnyRoute>(settings: Settings) {
  const teams = createRoute({
    getParentRoute: () => settings,
    path: 'teams',
    component: lazyRouteComponent(() => import('./teams/TeamsPage'), 'TeamsPage'),
  });
  const team = createRoute({
    getParentRoute: () => settings,
    path: 'teams/$teamId',
    validateSearch: (search: Record<string, unknown>): { tab?: string } =>
      typeof search.tab === 'string' ? { tab: search.tab } : {},
    component: lazyRouteComponent(() => import('./teams/TeamPage'), 'TeamPage'),
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
  const slaPolicies = createRoute({
    getParentRoute: () => settings,
    path: 'sla-policies',
    // The policy open in the form, so that it can be linked.
    validateSearch: (search: Record<string, unknown>): { policy?: string } =>
      typeof search.policy === 'string' ? { policy: search.policy } : {},
    component: lazyRouteComponent(() => import('./sla-policies/SlaPoliciesPage'), 'SlaPoliciesPage'),
  });
  const customFields = createRoute({
    getParentRoute: () => settings,
    path: 'custom-fields',
    component: lazyRouteComponent(() => import('./custom-fields/CustomFieldsPage'), 'CustomFieldsPage'),
  });
  const newCustomField = createRoute({
    getParentRoute: () => settings,
    path: 'custom-fields/new',
    component: lazyRouteComponent(() => import('./custom-fields/NewCustomFieldPage'), 'NewCustomFieldPage'),
  });
  const customField = createRoute({
    getParentRoute: () => settings,
    path: 'custom-fields/$fieldId',
    component: lazyRouteComponent(() => import('./custom-fields/CustomFieldPage'), 'CustomFieldPage'),
  });
  return [teams, team, routing, slaPolicies, customFields, newCustomField, customField] as const;
}

/** Who the helpdesk serves and who works in it: accounts, contacts, users, their keys and notifications. */
function peopleRoutes<Settings extends AnyRoute>(settings: Settings) {
  const accounts = createRoute({
    getParentRoute: () => settings,
    path: 'accounts',
    component: lazyRouteComponent(() => import('./accounts/AccountsPage'), 'AccountsPage'),
  });
  const account = createRoute({
    getParentRoute: () => settings,
    path: 'accounts/$accountId',
    component: lazyRouteComponent(() => import('./accounts/AccountPage'), 'AccountPage'),
  });
  const contacts = createRoute({
    getParentRoute: () => settings,
    path: 'contacts',
    component: lazyRouteComponent(() => import('./contacts/ContactsPage'), 'ContactsPage'),
  });
  const contact = createRoute({
    getParentRoute: () => settings,
    path: 'contacts/$contactId',
    component: lazyRouteComponent(() => import('./contacts/ContactPage'), 'ContactPage'),
  });
  const users = createRoute({
    getParentRoute: () => settings,
    path: 'users',
    component: lazyRouteComponent(() => import('./users/UsersPage'), 'UsersPage'),
  });
  const user = createRoute({
    getParentRoute: () => settings,
    path: 'users/$userId',
    component: lazyRouteComponent(() => import('./users/UserPage'), 'UserPage'),
  });
  const apiKeys = createRoute({
    getParentRoute: () => settings,
    path: 'api-keys',
    component: lazyRouteComponent(() => import('./api-keys/ApiKeysPage'), 'ApiKeysPage'),
  });
  const notifications = createRoute({
    getParentRoute: () => settings,
    path: 'notifications',
    component: lazyRouteComponent(() => import('./notifications/NotificationsPage'), 'NotificationsPage'),
  });
  return [accounts, account, contacts, contact, users, user, apiKeys, notifications] as const;
}

/** How conversations arrive and leave, what saves agents time, and the set-up as one document. */
function channelAndAutomationRoutes<Settings extends AnyRoute>(settings: Settings) {
  const mailboxes = createRoute({
    getParentRoute: () => settings,
    path: 'mailboxes',
    component: lazyRouteComponent(() => import('./mailboxes/MailboxesPage'), 'MailboxesPage'),
  });
  const newMailbox = createRoute({
    getParentRoute: () => settings,
    path: 'mailboxes/new',
    component: lazyRouteComponent(() => import('./mailboxes/MailboxCreatePage'), 'MailboxCreatePage'),
  });
  const mailbox = createRoute({
    getParentRoute: () => settings,
    path: 'mailboxes/$mailboxId',
    component: lazyRouteComponent(() => import('./mailboxes/MailboxPage'), 'MailboxPage'),
  });
  const channels = createRoute({
    getParentRoute: () => settings,
    path: 'channels',
    // The Slack install's outcome, as its OAuth callback sends the admin back.
    validateSearch: (search: Record<string, unknown>): { slack?: string; reason?: string } => ({
      ...(typeof search.slack === 'string' ? { slack: search.slack } : {}),
      ...(typeof search.reason === 'string' ? { reason: search.reason } : {}),
    }),
    component: lazyRouteComponent(() => import('./channels/ChannelsPage'), 'ChannelsPage'),
  });
  const webhooks = createRoute({
    getParentRoute: () => settings,
    path: 'webhooks',
    component: lazyRouteComponent(() => import('./webhooks/WebhooksPage'), 'WebhooksPage'),
  });
  const newWebhook = createRoute({
    getParentRoute: () => settings,
    path: 'webhooks/new',
    component: lazyRouteComponent(() => import('./webhooks/WebhookCreatePage'), 'WebhookCreatePage'),
  });
  const webhook = createRoute({
    getParentRoute: () => settings,
    path: 'webhooks/$webhookId',
    component: lazyRouteComponent(() => import('./webhooks/WebhookPage'), 'WebhookPage'),
  });
  const macros = createRoute({
    getParentRoute: () => settings,
    path: 'macros',
    component: lazyRouteComponent(() => import('./macros/MacrosPage'), 'MacrosPage'),
  });
  const macro = createRoute({
    getParentRoute: () => settings,
    path: 'macros/$macroId',
    component: lazyRouteComponent(() => import('./macros/MacroEditorPage'), 'MacroEditorPage'),
  });
  const views = createRoute({
    getParentRoute: () => settings,
    path: 'views',
    component: lazyRouteComponent(() => import('./views/ViewsPage'), 'ViewsPage'),
  });
  const view = createRoute({
    getParentRoute: () => settings,
    path: 'views/$viewId',
    component: lazyRouteComponent(() => import('./views/ViewEditorPage'), 'ViewEditorPage'),
  });
  const configuration = createRoute({
    getParentRoute: () => settings,
    path: 'configuration',
    component: lazyRouteComponent(() => import('./configuration/ConfigurationPage'), 'ConfigurationPage'),
  });
  return [
    mailboxes,
    newMailbox,
    mailbox,
    channels,
    webhooks,
    newWebhook,
    webhook,
    macros,
    macro,
    views,
    view,
    configuration,
  ] as const;
}
