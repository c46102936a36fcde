import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import { UserIdParamsSchema } from '../users/user.schemas.js';
import { NotificationPreferencesSchema, UpdateNotificationPreferencesSchema } from './notification-preference.schemas.js';
import {
  getNotificationPreferences,
  getNotificationPreferencesOfUser,
  updateNotificationPreferences,
  updateNotificationPreferencesOfUser,
} from './notification-preference.service.js';

const description =
  'Ticket emails go to the assignee, or to the members of the ticket’s team while nobody is assigned, through the ' +
  'email outbox: on assignment, on a customer reply, and on a mention in an internal note. Nobody is emailed about ' +
  'their own change. Every kind is on until turned off.';

/**
 * The caller's own notification switches (static paths, so they win over `/users/:userId`), and
 * any user's for admins.
 */
export function notificationPreferenceRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/users/me/notifications',
      {
        schema: {
          operationId: 'platform.users.getNotifications',
          tags: ['users'],
          summary: 'Which ticket emails the caller gets',
          description: `${description} Until the caller first changes one, the defaults are shown with a null updatedAt.`,
          response: { 200: PlatformEnvelopeSchema(NotificationPreferencesSchema), ...platformErrorResponses([]) },
        },
      },
      async (request) => platformEnvelope(deps.clock, await getNotificationPreferences(deps.db, request.principal)),
    );

    app.patch(
      '/users/me/notifications',
      {
        schema: {
          operationId: 'platform.users.updateNotifications',
          tags: ['users'],
          summary: 'Turns kinds of ticket email on or off for the caller',
          description: `${description} Kinds left out keep their value.`,
          body: UpdateNotificationPreferencesSchema,
          response: { 200: PlatformEnvelopeSchema(NotificationPreferencesSchema), ...platformErrorResponses([400]) },
        },
      },
      async (request) => platformEnvelope(deps.clock, await updateNotificationPreferences(deps, request.principal, request.body)),
    );

    app.get(
      '/users/:userId/notifications',
      {
        schema: {
          operationId: 'platform.users.getNotificationsOfUser',
          tags: ['users'],
          summary: 'Which ticket emails a user gets (admins only)',
          description: `${description} Until the user first changes one, the defaults are shown with a null updatedAt.`,
          params: UserIdParamsSchema,
          response: { 200: PlatformEnvelopeSchema(NotificationPreferencesSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) =>
        platformEnvelope(deps.clock, await getNotificationPreferencesOfUser(deps.db, request.principal, request.params.userId)),
    );

    app.patch(
      '/users/:userId/notifications',
      {
        schema: {
          operationId: 'platform.users.updateNotificationsOfUser',
          tags: ['users'],
          summary: 'Turns kinds of ticket email on or off for a user (admins only)',
          description: `${description} Kinds left out keep their value.`,
          params: UserIdParamsSchema,
          body: UpdateNotificationPreferencesSchema,
          response: { 200: PlatformEnvelopeSchema(NotificationPreferencesSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) =>
        platformEnvelope(
          deps.clock,
          await updateNotificationPreferencesOfUser(deps, request.principal, request.params.userId, request.body),
        ),
    );
  };
}
