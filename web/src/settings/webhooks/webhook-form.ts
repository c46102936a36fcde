import { z } from 'zod';
import { EVENT_TYPES } from '../../../../src/shared/event-types';
import type { Webhook, WebhookCreate } from './webhook-queries';

/** The form's values, named as the API names them, so its problems land beside their fields. */
export const webhookFormSchema = z.object({
  url: z.string().trim().min(1, 'Enter the URL deliveries are sent to'),
  description: z.string().trim().max(500, 'Keep the description under 500 characters'),
  eventTypes: z.array(z.string()).min(1, 'Choose at least one event type'),
  enabled: z.boolean(),
});

export type WebhookFormValues = z.infer<typeof webhookFormSchema>;

export function webhookFormValues(webhook?: Webhook): WebhookFormValues {
  return {
    url: webhook?.url ?? '',
    description: webhook?.description ?? '',
    eventTypes: webhook?.eventTypes ?? [],
    enabled: webhook?.enabled ?? true,
  };
}

export function webhookBody(values: WebhookFormValues): WebhookCreate {
  return {
    url: values.url,
    description: values.description || null,
    eventTypes: values.eventTypes,
    enabled: values.enabled,
  };
}

const GROUP_LABELS: Record<string, string> = {
  ticket: 'Tickets',
  comment: 'Comments',
  contact: 'Contacts',
  account: 'Accounts',
  note: 'Notes',
  article: 'Help center articles',
  collection: 'Help center collections',
  help_center: 'Help centers',
  chat: 'Agent chats',
  mcp_server: 'MCP servers',
};

/** The event types the API knows (src/shared/event-types.ts), grouped by what they are about. */
export const EVENT_TYPE_GROUPS: { label: string; types: string[] }[] = (() => {
  const groups = new Map<string, string[]>();
  for (const type of EVENT_TYPES) {
    const subject = type.slice(0, type.indexOf('.'));
    groups.set(subject, [...(groups.get(subject) ?? []), type]);
  }
  return [...groups].map(([subject, types]) => ({ label: GROUP_LABELS[subject] ?? subject, types }));
})();
