import { Type } from '@sinclair/typebox';
import { Nullable, TimestampSchema } from '../../http/shared-schemas.js';

export const SlackInstallationSchema = Type.Object(
  {
    teamId: Type.String({ description: "Slack's workspace id (T…)" }),
    teamName: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('revoked')], {
      description: 'revoked: Slack told us the app was uninstalled or its token revoked; install again',
    }),
    revokedReason: Nullable(Type.String()),
    scopes: Type.Array(Type.String(), { description: 'The scopes Slack granted the bot' }),
    installedBy: Type.String({ description: 'The admin who installed it last' }),
    installedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const SlackCallbackQuerySchema = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 500 })),
    state: Type.Optional(Type.String({ maxLength: 2000 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: true },
);

export const SlackEventEnvelopeSchema = Type.Object(
  {
    type: Type.String({ description: 'url_verification or event_callback' }),
    challenge: Type.Optional(Type.String()),
    team_id: Type.Optional(Type.String()),
    event_id: Type.Optional(Type.String()),
    event_time: Type.Optional(Type.Integer()),
    event: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true, description: "Slack's Events API envelope, signed with the app's signing secret" },
);

export const SlackEventAnswerSchema = Type.Object(
  {
    ok: Type.Optional(Type.Boolean()),
    challenge: Type.Optional(Type.String({ description: 'The url_verification challenge, echoed' })),
  },
  { additionalProperties: false },
);
