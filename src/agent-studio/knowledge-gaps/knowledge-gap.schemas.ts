import { Type } from '@sinclair/typebox';
import { Nullable, TimestampSchema, UuidSchema } from '../../http/shared-schemas.js';
import { listPageFields } from '../agent-studio.pagination.js';

export const DEFAULT_GAP_DAYS = 30;
export const MAX_GAP_DAYS = 365;

export const ListKnowledgeGapsQuerySchema = Type.Object({
  days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_GAP_DAYS,
      default: DEFAULT_GAP_DAYS,
      description: 'How many days back to read hand-offs, up to now',
    }),
  ),
  ...listPageFields(),
});

export const KnowledgeGapSchema = Type.Object(
  {
    question: Type.String({
      description: 'The wording of the group asked most often (the newest on a tie), shortened to 300 characters',
    }),
    count: Type.Integer({ description: 'Questions of the group handed off in the range' }),
    terms: Type.Array(Type.String(), { description: 'The significant terms its questions were grouped by' }),
    newest: Type.Object(
      {
        run_id: UuidSchema,
        handed_off_at: TimestampSchema,
        ticket: Type.Object(
          {
            id: Type.String(),
            identifier: Nullable(Type.String({ description: 'Null when the ticket was deleted since' })),
            title: Nullable(Type.String({ description: 'Null when the ticket was deleted since' })),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false, description: 'The group’s newest question: its run and its ticket' },
    ),
  },
  { additionalProperties: false, title: 'KnowledgeGap' },
);
