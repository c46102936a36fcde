import { Type } from '@sinclair/typebox';
import { Nullable, ObjectIdSchema, TimestampSchema } from '../../http/shared-schemas.js';
import { listPageFields } from '../help-center.pagination.js';
import { MetaInputSchema, MetaSchema } from './help-center.meta.js';
import { ThemeInputSchema, ThemeSchema } from './help-center.theme.js';
import { WidgetInputSchema, WidgetSchema } from './help-center.widget.js';

export const HelpCenterSchema = Type.Object(
  {
    _id: ObjectIdSchema,
    orgId: Type.String(),
    name: Type.String(),
    slug: Type.String(),
    isProtected: Type.Boolean({ description: 'Whether reading it requires authentication' }),
    meta: MetaSchema,
    customDomain: Nullable(Type.String({ description: 'Host name serving the site without the /hc/{slug} prefix' })),
    theme: ThemeSchema,
    widget: WidgetSchema,
    createdBy: Type.String(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const CreateHelpCenterSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    isProtected: Type.Optional(Type.Boolean({ default: false })),
    meta: Type.Optional(MetaInputSchema),
  },
  { additionalProperties: false },
);

export const UpdateHelpCenterSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    slug: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 80,
        pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
        description:
          'Lower-case letters and digits joined by single hyphens, unique across the instance (the site is at /hc/{slug}/); renaming keeps the slug unless this is given',
      }),
    ),
    isProtected: Type.Optional(Type.Boolean()),
    meta: Type.Optional(MetaInputSchema),
    customDomain: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 300,
          description:
            'A host name such as help.example.com (stored lower-case, unique across the instance) serving the site; null removes it',
        }),
      ),
    ),
    theme: Type.Optional(ThemeInputSchema),
    widget: Type.Optional(WidgetInputSchema),
  },
  { additionalProperties: false },
);

export const ListHelpCentersQuerySchema = Type.Object(listPageFields(), { additionalProperties: false });

export const HelpCenterIdParamsSchema = Type.Object({ id: ObjectIdSchema }, { additionalProperties: false });

export const WidgetSecretSchema = Type.Object(
  {
    secret: Type.String({
      description:
        'Shown this once: hosts sign identity tokens (JWT, HS256) with it, its UTF-8 bytes as the key. Making a new one invalidates tokens signed with the old.',
    }),
  },
  { additionalProperties: false },
);
