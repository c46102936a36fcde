import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import { ConfigDocumentSchema, ConfigImportQuerySchema, ConfigImportResultSchema } from './config.schemas.js';
import { exportConfiguration } from './config-export.service.js';
import { importConfiguration } from './config-import.service.js';

const tags = ['configuration'];

/** The organization's set-up as one document, out and back in; organization admins only. */
export function configRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  return async (app) => {
    app.get(
      '/config/export',
      {
        schema: {
          operationId: 'platform.config.export',
          tags,
          summary: "The organization's set-up as one document: objects named, never by id; no secrets",
          response: { 200: PlatformEnvelopeSchema(ConfigDocumentSchema), ...platformErrorResponses([403]) },
        },
      },
      async (request) => ok(await exportConfiguration(deps.db, request.principal)),
    );

    app.post(
      '/config/import',
      {
        schema: {
          operationId: 'platform.config.import',
          tags,
          summary: 'Make the organization hold what a configuration document says, in one transaction',
          description:
            'Objects are matched by name (tags and routing rules by team and name, custom fields by source and slug, ' +
            'mailboxes by address, webhooks by URL) and created or changed; nothing is deleted unless prune is true. ' +
            'A document of another version, with an unknown key, a reference to nothing or a secret is refused whole ' +
            '(400, every problem in the message, separated by "; ", each starting with its path). dryRun lists the ' +
            'changes and writes nothing.',
          querystring: ConfigImportQuerySchema,
          body: ConfigDocumentSchema,
          response: { 200: PlatformEnvelopeSchema(ConfigImportResultSchema), ...platformErrorResponses([400, 403, 409]) },
        },
        // The service judges the document itself (the CLI hands it the same), so that a secret is
        // named as one and every problem is listed with the others.
        attachValidation: true,
      },
      async (request) => {
        if (request.validationError && request.validationError.validationContext !== 'body') {
          throw request.validationError;
        }
        return ok(await importConfiguration(deps, request.principal, request.body, request.query));
      },
    );
  };
}
