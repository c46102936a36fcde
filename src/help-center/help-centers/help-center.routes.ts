import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import {
  HelpCenterEnvelopeSchema,
  HelpCenterListEnvelopeSchema,
  helpCenterEnvelope,
  helpCenterErrorResponses,
  helpCenterListEnvelope,
} from '../help-center.envelope.js';
import {
  CreateHelpCenterSchema,
  HelpCenterIdParamsSchema,
  HelpCenterSchema,
  ListHelpCentersQuerySchema,
  UpdateHelpCenterSchema,
  WidgetSecretSchema,
} from './help-center.schemas.js';
import { createHelpCenter, getHelpCenter, listOrganizationHelpCenters, updateHelpCenterDetails } from './help-center.service.js';
import { rotateWidgetSecret } from './help-center-widget.service.js';

const tags = ['help-centers'];

export function helpCenterRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/help-centers',
      {
        schema: {
          operationId: 'helpCenter.helpCenters.create',
          tags,
          summary: 'Create a help center (admins); its slug is derived from the name, unique across the instance',
          body: CreateHelpCenterSchema,
          response: { 201: HelpCenterEnvelopeSchema(HelpCenterSchema), ...helpCenterErrorResponses([400, 403]) },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(helpCenterEnvelope(await createHelpCenter(deps, request.principal, request.body), 'Help center created')),
    );

    app.get(
      '/help-centers',
      {
        schema: {
          operationId: 'helpCenter.helpCenters.list',
          tags,
          summary: "A page of the organization's help centers, oldest first",
          querystring: ListHelpCentersQuerySchema,
          response: {
            200: HelpCenterListEnvelopeSchema(HelpCenterSchema, 'Oldest first (creation time, then id)'),
            ...helpCenterErrorResponses([400]),
          },
        },
      },
      async (request) =>
        helpCenterListEnvelope(
          await listOrganizationHelpCenters(deps.db, request.principal, request.query),
          'Help centers retrieved',
        ),
    );

    app.get(
      '/help-centers/:id',
      {
        schema: {
          operationId: 'helpCenter.helpCenters.get',
          summary: 'One help center',
          tags,
          params: HelpCenterIdParamsSchema,
          response: { 200: HelpCenterEnvelopeSchema(HelpCenterSchema), ...helpCenterErrorResponses([400, 404]) },
        },
      },
      async (request) =>
        helpCenterEnvelope(await getHelpCenter(deps.db, request.principal, request.params.id), 'Help center retrieved'),
    );

    app.patch(
      '/help-centers/:id',
      {
        schema: {
          operationId: 'helpCenter.helpCenters.update',
          tags,
          summary:
            'Update name, slug, protection, meta, custom domain, theme or messenger widget (admins; meta, theme and widget keys merge, null clears one)',
          params: HelpCenterIdParamsSchema,
          body: UpdateHelpCenterSchema,
          response: { 200: HelpCenterEnvelopeSchema(HelpCenterSchema), ...helpCenterErrorResponses([400, 403, 404, 409]) },
        },
      },
      async (request) =>
        helpCenterEnvelope(
          await updateHelpCenterDetails(deps, request.principal, request.params.id, request.body),
          'Help center updated',
        ),
    );

    app.post(
      '/help-centers/:id/widget/secret',
      {
        schema: {
          operationId: 'helpCenter.helpCenters.rotateWidgetSecret',
          tags,
          summary:
            "Make or rotate the messenger widget's secret (admins): answered once, kept sealed; tokens signed with the previous one stop verifying",
          params: HelpCenterIdParamsSchema,
          response: { 201: HelpCenterEnvelopeSchema(WidgetSecretSchema), ...helpCenterErrorResponses([400, 403, 404]) },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            helpCenterEnvelope(await rotateWidgetSecret(deps, request.principal, request.params.id), 'Widget secret created'),
          ),
    );
  };
}
