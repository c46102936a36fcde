import { type Static, Type } from '@sinclair/typebox';
import { Nullable, TimestampSchema } from '../../http/shared-schemas.js';

const kinds = {
  assigned: 'A ticket is assigned to me: by hand, at creation, or by routing',
  customerReply: 'The customer replies on a ticket assigned to me',
  mentioned: 'Someone mentions me (`@email` or `@name`) in an internal note',
  teamUnassigned:
    'Mail I get only as a member of the team of an unassigned ticket: a new ticket nobody was assigned, a customer reply on it. ' +
    'Each such email also needs its own kind (assigned or customerReply) on',
  slaAlerts:
    "An SLA target of a ticket assigned to me nears its due time (the policy's warning share) or is breached; of my team's tickets while nobody is assigned",
} as const;

export const NotificationPreferencesSchema = Type.Object(
  {
    userId: Type.String(),
    assigned: Type.Boolean({ description: kinds.assigned }),
    customerReply: Type.Boolean({ description: kinds.customerReply }),
    mentioned: Type.Boolean({ description: kinds.mentioned }),
    teamUnassigned: Type.Boolean({ description: kinds.teamUnassigned }),
    slaAlerts: Type.Boolean({ description: kinds.slaAlerts }),
    updatedAt: Nullable(TimestampSchema),
  },
  { additionalProperties: false },
);

export type NotificationPreferences = Static<typeof NotificationPreferencesSchema>;

export const UpdateNotificationPreferencesSchema = Type.Object(
  {
    assigned: Type.Optional(Type.Boolean({ description: kinds.assigned })),
    customerReply: Type.Optional(Type.Boolean({ description: kinds.customerReply })),
    mentioned: Type.Optional(Type.Boolean({ description: kinds.mentioned })),
    teamUnassigned: Type.Optional(Type.Boolean({ description: kinds.teamUnassigned })),
    slaAlerts: Type.Optional(Type.Boolean({ description: kinds.slaAlerts })),
  },
  { additionalProperties: false },
);

export type UpdateNotificationPreferences = Static<typeof UpdateNotificationPreferencesSchema>;
