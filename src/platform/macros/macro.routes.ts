import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import {
  PlatformEnvelopeSchema,
  PlatformListEnvelopeSchema,
  platformEnvelope,
  platformErrorResponses,
  platformListEnvelope,
} from '../platform.envelope.js';
import {
  AppliedMacroSchema,
  ApplyMacroParamsSchema,
  ApplyMacroSchema,
  CreateMacroSchema,
  ListMacrosQuerySchema,
  MacroParamsSchema,
  MacroSchema,
  UpdateMacroSchema,
} from './macro.schemas.js';
import { applyMacro, changeMacro, createMacro, getMacro, listUsableMacros, removeMacro } from './macro.service.js';

const tags = ['macros'];

/** Canned replies: personal or shared with a team, applied to a ticket as a reply plus changes. */
export function macroRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  return async (app) => {
    app.post(
      '/macros',
      {
        schema: {
          operationId: 'platform.macros.create',
          tags,
          summary: 'Create a macro: personal, or shared with a team (its admins and organization admins only)',
          body: CreateMacroSchema,
          response: { 201: PlatformEnvelopeSchema(MacroSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request, reply) => reply.code(201).send(ok(await createMacro(deps, request.principal, request.body))),
    );

    app.get(
      '/macros',
      {
        schema: {
          operationId: 'platform.macros.list',
          tags,
          summary: "The caller's macros and those shared with their teams (every shared one for admins), by name",
          querystring: ListMacrosQuerySchema,
          response: { 200: PlatformListEnvelopeSchema(Type.Array(MacroSchema)), ...platformErrorResponses([400]) },
        },
      },
      async (request) => {
        const page = await listUsableMacros(deps.db, request.principal, request.query);
        return platformListEnvelope(deps.clock, page.items, page.nextCursor);
      },
    );

    app.get(
      '/macros/:macroId',
      {
        schema: {
          operationId: 'platform.macros.get',
          tags,
          summary: 'One macro',
          params: MacroParamsSchema,
          response: { 200: PlatformEnvelopeSchema(MacroSchema), ...platformErrorResponses([400, 404]) },
        },
      },
      async (request) => ok(await getMacro(deps.db, request.principal, request.params.macroId)),
    );

    app.patch(
      '/macros/:macroId',
      {
        schema: {
          operationId: 'platform.macros.update',
          tags,
          summary: 'Change the fields sent of a macro (its owner; for a shared one, an admin)',
          params: MacroParamsSchema,
          body: UpdateMacroSchema,
          response: { 200: PlatformEnvelopeSchema(MacroSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => ok(await changeMacro(deps, request.principal, request.params.macroId, request.body)),
    );

    app.delete(
      '/macros/:macroId',
      {
        schema: {
          operationId: 'platform.macros.delete',
          tags,
          summary: 'Delete a macro (its owner; for a shared one, an admin); answers with the deleted macro',
          params: MacroParamsSchema,
          response: { 200: PlatformEnvelopeSchema(MacroSchema), ...platformErrorResponses([400, 403, 404]) },
        },
      },
      async (request) => ok(await removeMacro(deps, request.principal, request.params.macroId)),
    );

    app.post(
      '/tickets/:id/macros/:macroId/apply',
      {
        schema: {
          operationId: 'platform.macros.apply',
          tags: ['macros', 'tickets'],
          summary: 'Apply a macro: its reply is posted and its actions applied in one transaction; all or nothing',
          description:
            'Answers 201 with the comment and the ticket as the macro left it; a replayed deDuplicationKey answers ' +
            '200 with the first reply and changes nothing. An action that cannot apply to this ticket (a status of ' +
            'another team, a tag of another team) is a 400 naming it, and nothing is written.',
          params: ApplyMacroParamsSchema,
          // Optional: an apply with no body (Fastify validates a missing body as null) uses the macro as saved.
          body: Type.Union([Type.Null(), ApplyMacroSchema]),
          response: {
            201: PlatformEnvelopeSchema(AppliedMacroSchema),
            200: PlatformEnvelopeSchema(AppliedMacroSchema),
            ...platformErrorResponses([400, 404, 409]),
          },
        },
      },
      async (request, reply) => {
        const { id, macroId } = request.params;
        const { applied, created } = await applyMacro(deps, request.principal, id, macroId, request.body ?? {});
        return reply.code(created ? 201 : 200).send(ok(applied));
      },
    );
  };
}
