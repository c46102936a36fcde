import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../deps.js';
import { PlatformEnvelopeSchema, platformEnvelope, platformErrorResponses } from '../platform.envelope.js';
import { BulkResultSchema, BulkUpdateSchema } from './ticket-bulk.schemas.js';
import { bulkUpdateTickets } from './ticket-bulk.service.js';

export function ticketBulkRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/tickets/bulk',
      {
        schema: {
          operationId: 'platform.tickets.bulk',
          tags: ['tickets'],
          summary: 'Apply one change to up to 100 tickets, all or nothing',
          description:
            'One transaction: when any ticket cannot take the change (unknown or not visible: 404; a status its team ' +
            'lacks, a tag of another team: 400), the answer names it (`ticketIds[3] (BILL-7): …`) and no ticket changes. ' +
            'Otherwise every ticket answers with whether it changed; each change is in its timeline.',
          body: BulkUpdateSchema,
          response: { 200: PlatformEnvelopeSchema(BulkResultSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => platformEnvelope(deps.clock, await bulkUpdateTickets(deps, request.principal, request.body)),
    );
  };
}
