/**
 * The settings rail, in the order a support lead sets a helpdesk up. Each entry's `to` is its
 * page's stable address below /app, so it can be linked and bookmarked.
 */
export const SETTINGS_AREAS = [
  { label: 'Teams', to: '/settings/teams' },
  { label: 'Routing', to: '/settings/routing' },
  { label: 'SLA policies', to: '/settings/sla-policies' },
  { label: 'Custom fields', to: '/settings/custom-fields' },
  { label: 'Accounts', to: '/settings/accounts' },
  { label: 'Contacts', to: '/settings/contacts' },
  { label: 'Users', to: '/settings/users' },
  { label: 'API keys', to: '/settings/api-keys' },
  { label: 'Mailboxes', to: '/settings/mailboxes' },
  { label: 'Channels', to: '/settings/channels' },
  { label: 'Webhooks', to: '/settings/webhooks' },
  { label: 'Macros', to: '/settings/macros' },
  { label: 'Views', to: '/settings/views' },
  { label: 'Notifications', to: '/settings/notifications' },
  { label: 'Import and export', to: '/settings/configuration' },
] as const;
