import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import type { TypeBoxApp } from '../../http/typebox-app.js';
import {
  PlatformEnvelopeSchema,
  PlatformListEnvelopeSchema,
  platformEnvelope,
  platformErrorResponses,
  platformListEnvelope,
} from '../platform.envelope.js';
import {
  AddTeamMemberSchema,
  CreateTeamSchema,
  ListTeamMembersQuerySchema,
  ListTeamsQuerySchema,
  TeamIdParamsSchema,
  TeamMemberParamsSchema,
  TeamMemberSchema,
  TeamSchema,
  UpdateTeamSchema,
} from './team.schemas.js';
import {
  addTeamMember,
  archiveTeam,
  createTeam,
  getTeam,
  listMembers,
  listSubTeams,
  listVisibleTeams,
  removeTeamMember,
  updateTeamDetails,
} from './team.service.js';

const tags = ['teams'];
const CURSOR_PAGING = 'Oldest first, then by id, `limit` at a time; `cursor` takes the `nextCursor` of the page before.';

export function teamRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    registerTeamRoutes(app, deps);
    registerTeamMemberRoutes(app, deps);
  };
}

/** Teams themselves: create, list, read, change, archive, and their sub-teams. */
function registerTeamRoutes(app: TypeBoxApp, deps: AppDeps): void {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  const list = <T>(page: { items: T; nextCursor: string | null }) =>
    platformListEnvelope(deps.clock, page.items, page.nextCursor);

  app.post(
    '/teams',
    {
      schema: {
        operationId: 'platform.teams.create',
        tags,
        summary: 'Create a team (or a sub-team with parentTeamId); the caller becomes its owner',
        body: CreateTeamSchema,
        response: { 201: PlatformEnvelopeSchema(TeamSchema), ...platformErrorResponses([400, 403, 409]) },
      },
    },
    async (request, reply) => reply.code(201).send(ok(await createTeam(deps, request.principal, request.body))),
  );

  app.get(
    '/teams',
    {
      schema: {
        operationId: 'platform.teams.list',
        tags,
        summary: 'Active teams the caller can see: public ones and private ones they belong to',
        description: CURSOR_PAGING,
        querystring: ListTeamsQuerySchema,
        response: { 200: PlatformListEnvelopeSchema(Type.Array(TeamSchema)), ...platformErrorResponses([400]) },
      },
    },
    async (request) => list(await listVisibleTeams(deps.db, request.principal, request.query)),
  );

  app.get(
    '/teams/:teamId',
    {
      schema: {
        operationId: 'platform.teams.get',
        summary: 'One team the caller can see',
        tags,
        params: TeamIdParamsSchema,
        response: { 200: PlatformEnvelopeSchema(TeamSchema), ...platformErrorResponses([400, 404]) },
      },
    },
    async (request) => ok(await getTeam(deps.db, request.principal, request.params.teamId)),
  );

  app.patch(
    '/teams/:teamId',
    {
      schema: {
        operationId: 'platform.teams.update',
        summary: "Change a team's name, identifier, description, icon, color or privacy (team or organization admins)",
        tags,
        params: TeamIdParamsSchema,
        body: UpdateTeamSchema,
        response: { 200: PlatformEnvelopeSchema(TeamSchema), ...platformErrorResponses([400, 403, 404, 409]) },
      },
    },
    async (request) => ok(await updateTeamDetails(deps, request.principal, request.params.teamId, request.body)),
  );

  app.delete(
    '/teams/:teamId',
    {
      schema: {
        operationId: 'platform.teams.archive',
        tags,
        summary: 'Archive a team; its identifier stays reserved',
        params: TeamIdParamsSchema,
        response: { 200: PlatformEnvelopeSchema(TeamSchema), ...platformErrorResponses([400, 403, 404, 409]) },
      },
    },
    async (request) => ok(await archiveTeam(deps, request.principal, request.params.teamId)),
  );

  app.get(
    '/teams/:teamId/sub-teams',
    {
      schema: {
        operationId: 'platform.teams.subTeams',
        summary: "A team's active sub-teams",
        description: CURSOR_PAGING,
        tags,
        params: TeamIdParamsSchema,
        querystring: ListTeamsQuerySchema,
        response: { 200: PlatformListEnvelopeSchema(Type.Array(TeamSchema)), ...platformErrorResponses([400, 404]) },
      },
    },
    async (request) => list(await listSubTeams(deps.db, request.principal, request.params.teamId, request.query)),
  );
}

/** A team's members: add, list, remove. */
function registerTeamMemberRoutes(app: TypeBoxApp, deps: AppDeps): void {
  const ok = <T>(data: T) => platformEnvelope(deps.clock, data);
  const list = <T>(page: { items: T; nextCursor: string | null }) =>
    platformListEnvelope(deps.clock, page.items, page.nextCursor);

  app.post(
    '/teams/:teamId/members',
    {
      schema: {
        operationId: 'platform.teams.addMember',
        tags,
        summary: 'Add a user to a team, by email or userId; answers the member itself, without the usual envelope',
        params: TeamIdParamsSchema,
        body: AddTeamMemberSchema,
        response: { 201: TeamMemberSchema, ...platformErrorResponses([400, 403, 404, 409]) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await addTeamMember(deps, request.principal, request.params.teamId, request.body)),
  );

  app.get(
    '/teams/:teamId/members',
    {
      schema: {
        operationId: 'platform.teams.listMembers',
        summary: "A team's members",
        description: 'In joining order, then by user id, `limit` at a time; `cursor` takes the `nextCursor` of the page before.',
        tags,
        params: TeamIdParamsSchema,
        querystring: ListTeamMembersQuerySchema,
        response: { 200: PlatformListEnvelopeSchema(Type.Array(TeamMemberSchema)), ...platformErrorResponses([400, 404]) },
      },
    },
    async (request) => list(await listMembers(deps.db, request.principal, request.params.teamId, request.query)),
  );

  app.delete(
    '/teams/:teamId/members/:userId',
    {
      schema: {
        operationId: 'platform.teams.removeMember',
        summary: 'Remove a user from a team (team or organization admins, or the user themself); the owner stays',
        tags,
        params: TeamMemberParamsSchema,
        response: { 200: PlatformEnvelopeSchema(TeamMemberSchema), ...platformErrorResponses([400, 403, 404, 409]) },
      },
    },
    async (request) => ok(await removeTeamMember(deps, request.principal, request.params.teamId, request.params.userId)),
  );
}
