import type { FastifyInstance } from 'fastify';
import { type ConfiguredOrganization, succeed } from './config-organization.js';

/**
 * The service levels of an organization set up by `configureOrganization`, made through the API,
 * for the tests of configuration export and import: Support's statuses changed (in_progress
 * renamed and pausing SLA clocks, on_hold no longer pausing them), its survey settings on with a
 * tag and a priority to skip, and two SLA policies whose conditions name a team, tags (by id and
 * by name) and a custom field. Answers the ids the tests change them by.
 */
export interface ConfiguredServiceLevels {
  statuses: { inProgress: string; onHold: string };
  priorities: { low: string; urgent: string };
  policies: { vip: string; everyone: string };
}

/** What `configureServiceLevels` makes, as the document names it. */
export const SERVICE_LEVELS_DOCUMENT = {
  supportStatuses: [
    { team: 'Support', name: 'open', displayName: 'Open', pausesSla: false },
    { team: 'Support', name: 'in_progress', displayName: 'Working on it', pausesSla: true },
    { team: 'Support', name: 'on_hold', displayName: 'On hold', pausesSla: false },
    { team: 'Support', name: 'closed', displayName: 'Closed', pausesSla: false },
  ],
  supportSurveys: {
    team: 'Support',
    enabled: true,
    delayMinutes: 60,
    samplingShare: 0.5,
    cooldownDays: 7,
    skipWhen: { tags: ['VIP'], priorities: ['low'] },
  },
  slaPolicies: [
    {
      name: 'VIP support',
      description: null,
      position: 0,
      andRules: [
        '{"field":"teamId","operator":"equals","value":"Support"}',
        '{"field":"tags","operator":"contains","value":"VIP"}',
      ],
      orRules: [
        '{"field":"customField.plan","operator":"equals","value":"gold"}',
        '{"field":"title","operator":"starts_with","value":"Urgent"}',
      ],
      targets: { high: { firstReply: 30, resolution: 240 } },
      businessHours: false,
      aiRepliesCount: false,
      warningShare: 0.5,
    },
    {
      name: 'Everyone',
      description: 'The rest',
      position: 5,
      andRules: ['{"field":"teamId","operator":"in","value":["Support","Billing"]}'],
      orRules: [
        '{"field":"tags","operator":"contains","value":"German"}',
        '{"field":"priority","operator":"equals","value":"medium"}',
      ],
      targets: { medium: { firstReply: 240, resolution: 1440 } },
      businessHours: true,
      aiRepliesCount: true,
      warningShare: 0.75,
    },
  ],
};

const condition = (value: Record<string, unknown>) => JSON.stringify(value);

export async function configureServiceLevels(
  app: FastifyInstance,
  headers: Record<string, string>,
  configured: ConfiguredOrganization,
): Promise<ConfiguredServiceLevels> {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    succeed(app, headers, method, url, payload);
  const { support, billing } = configured.teams;
  const byName = (options: { id: string; displayName: string }[], name: string) =>
    options.find((option) => option.displayName === name)?.id ?? '';
  const statuses = await call('GET', `/v1/tickets/statuses?teamId=${support}`);
  const inProgress = byName(statuses, 'In progress');
  const onHold = byName(statuses, 'On hold');
  await call('PATCH', `/v1/tickets/statuses/${inProgress}`, { displayName: 'Working on it', pausesSla: true });
  await call('PATCH', `/v1/tickets/statuses/${onHold}`, { pausesSla: false });
  const priorities = await call('GET', `/v1/tickets/priorities?teamId=${support}`);
  const low = byName(priorities, 'Low');
  await call('PUT', `/v1/teams/${support}/satisfaction-settings`, {
    enabled: true,
    delayMinutes: 60,
    samplingShare: 0.5,
    cooldownDays: 7,
    skipWhen: { tagIds: [configured.tags.vip], priorityIds: [low] },
  });
  const vip = await call('POST', '/v1/sla-policies', {
    name: 'VIP support',
    position: 0,
    andRules: [
      condition({ field: 'teamId', operator: 'equals', value: support }),
      condition({ field: 'tags', operator: 'contains', value: configured.tags.vip }),
    ],
    orRules: [
      condition({ field: `customField.${configured.customField}`, operator: 'equals', value: 'gold' }),
      condition({ field: 'title', operator: 'starts_with', value: 'Urgent' }),
    ],
    targets: { high: { firstReply: 30, resolution: 240 } },
    businessHours: false,
    warningShare: 0.5,
  });
  const everyone = await call('POST', '/v1/sla-policies', {
    name: 'Everyone',
    description: 'The rest',
    position: 5,
    andRules: [condition({ field: 'teamId', operator: 'in', value: [support, billing] })],
    orRules: [
      condition({ field: 'tags', operator: 'contains', value: 'German' }),
      condition({ field: 'priority', operator: 'equals', value: 'medium' }),
    ],
    targets: { medium: { firstReply: 240, resolution: 1440 } },
    aiRepliesCount: true,
  });
  return {
    statuses: { inProgress, onHold },
    priorities: { low, urgent: byName(priorities, 'Urgent') },
    policies: { vip: vip.id, everyone: everyone.id },
  };
}
