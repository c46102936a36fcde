import { sql } from 'kysely';
import { startSession } from '../src/platform/auth/session.service.js';
import type { TestOrganization } from './factories.js';
import type { TestApp } from './harness.js';
import type { TestModelServer } from './model-server.js';
import type { WebhookReceiver } from './webhook-receiver.js';
import { createAs, makeWriteRouteResources, type ResourceIds } from './write-routes.js';

/**
 * What `permissions.test.ts` needs beyond the routes: a resource of the organization for every
 * path parameter, a request each route accepts, and the organization's rows, to show that a
 * refused request wrote nothing.
 */

const BOUNDARY = '----switchboard-permission-walk';

/** A one-file multipart/form-data body, as the upload routes take. */
export function multipartFile(name: string, text: string) {
  return {
    payload: Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n` +
        `${text}\r\n--${BOUNDARY}--\r\n`,
    ),
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  };
}

/**
 * Every resource a write route names, made by the organization's admin, beside the member: the
 * member belongs to the team but does not manage it, and the macro and view are the team's, so
 * every rule is tried on what the member can see.
 */
export async function makeWalkResources(
  harness: TestApp,
  acme: TestOrganization,
  member: { userId: string },
  peers: { model: TestModelServer; receiver: WebhookReceiver },
): Promise<ResourceIds> {
  const create = (url: string, payload: Record<string, unknown>) => createAs(harness, acme, url, payload);
  const ids = await makeWriteRouteResources(harness, acme);
  await create(`/v1/teams/${ids.team}/members`, { userId: member.userId });
  ids.macro = String((await create('/v1/macros', { name: 'Team macro', content: 'Hello', teamId: ids.team })).id);
  ids.view = String((await create('/v1/views', { name: 'Team view', filters: { isClosed: false }, teamId: ids.team })).id);
  const ticket = (title: string, extra: Record<string, unknown> = {}) =>
    create('/v1/tickets', { title, requestorEmail: 'customer@example.com', teamId: ids.team, ...extra });
  // Merging closes the merged ticket: a pair of their own, so the walk's ticket stays open.
  ids.mergeSource = String((await ticket('Merged away')).id);
  ids.mergeTarget = String((await ticket('Merged into')).id);
  // Merging deletes the merged tag: one of its own, so the walk's tag stays for the routes after.
  const mergedTag = await create('/tags', { name: 'walk-merged-tag' });
  ids.mergedHelpTag = String(mergedTag._id ?? mergedTag.id);
  // Assigning a ticket emails its assignee: an outbox message.
  await ticket('Assigned', { assignedAgentId: member.userId });
  ids.outbox = (
    await harness.db
      .selectFrom('email_outbox')
      .select('id')
      .where('organization_id', '=', acme.organizationId)
      .executeTakeFirstOrThrow()
  ).id;
  const upload = multipartFile('minutes.txt', 'Minutes');
  const attachment = await harness.app.inject({
    method: 'POST',
    url: `/v1/accounts/notes/${ids.note}/attachments`,
    headers: { ...acme.headers, 'content-type': upload.contentType },
    payload: upload.payload,
  });
  ids.noteAttachment = String((attachment.json().data ?? attachment.json()).id);
  ids.webhook = String((await create('/v1/webhooks', { url: `${peers.receiver.base}/walk`, eventTypes: ['ticket.created'] })).id);
  ids.webhookDelivery = String((await create(`/v1/webhooks/${ids.webhook}/test`, {})).id);
  ids.mailbox = String(
    (await create('/v1/mailboxes', { address: 'desk@walk.example', teamId: ids.team, displayName: 'Desk', delivery: 'smtp' })).id,
  );
  ids.session = (
    await startSession(
      harness.db,
      harness,
      { organizationId: acme.organizationId, userId: acme.userId },
      { userAgent: 'Walker', ipAddress: '127.0.0.1' },
    )
  ).row.id;
  await makeAgentResources(harness, acme, ids, peers.model);
  return ids;
}

/** A model provider on the loopback model, the agent on it with a tool and an MCP server, and a run of its thread. */
async function makeAgentResources(harness: TestApp, acme: TestOrganization, ids: ResourceIds, model: TestModelServer) {
  const threadId = ids.thread ?? '';
  const create = (url: string, payload: Record<string, unknown>) => createAs(harness, acme, url, payload);
  ids.modelProvider = String(
    (
      await create('/api/v1/model-providers', {
        name: 'Loopback',
        kind: 'openai_compatible',
        base_url: model.baseUrl,
        api_key: 'sk-walk',
        default_model: 'test-model',
      })
    ).id,
  );
  const configured = await harness.app.inject({
    method: 'PUT',
    url: `/api/v1/agents/${ids.agent}`,
    headers: acme.headers,
    payload: { configuration: { model_provider_id: ids.modelProvider } },
  });
  if (configured.statusCode !== 200) {
    throw new Error(`agent not configured: ${configured.body}`);
  }
  const agent = `/api/v1/agents/${ids.agent}`;
  ids.agentTool = String(
    (await create(`${agent}/tools`, { agent_id: ids.agent, tool_name: 'ticket_lookup', tool_type: 'built_in' })).id,
  );
  ids.mcpServer = String(
    (await create(`/api/v1/mcp/agents/${ids.agent}/servers`, { name: 'Docs', url: 'https://mcp.walk.example/mcp' })).id,
  );
  // The answer comes once the run is over: nothing of it is left running during the walk.
  model.script({ text: 'Hello there' });
  await create(`/api/v1/chat/${ids.agent}/threads/${ids.thread}/messages`, { content: 'Hi', role: 'user' });
  ids.run = (
    await harness.db.selectFrom('agent_runs').select('id').where('thread_id', '=', threadId).executeTakeFirstOrThrow()
  ).id;
}

export interface WalkRequest {
  payload?: unknown;
  contentType?: string;
  query?: string;
  /** Resources the route is walked on instead of the shared ones. */
  ids?: ResourceIds;
}

/**
 * A request each route accepts, keyed `METHOD /openapi/path`: refusals must come from who asks,
 * not from a body the schema refuses first. Routes without a body need no entry.
 */
export function walkRequests(ids: ResourceIds, memberId: string): Record<string, WalkRequest> {
  const json = (payload: unknown): WalkRequest => ({ payload });
  return {
    'POST /v1/attachments': multipartFile('walk.txt', 'Walking'),
    'PATCH /v1/users/business-hours': json({ timezone: 'Europe/Paris' }),
    'PATCH /v1/users/me/notifications': json({ assigned: false }),
    'POST /v1/users': json({ name: 'Walker', email: 'walker@walk.example' }),
    'PATCH /v1/users/{userId}': json({ name: 'Renamed' }),
    'PATCH /v1/users/{userId}/notifications': json({ assigned: false }),
    'POST /v1/users/{userId}/api-keys': json({ name: 'Walk key' }),
    'POST /v1/teams/{teamUuid}/tags': json({ name: 'walk-tag' }),
    'PUT /v1/teams/{teamUuid}/tags/{tagUuid}': json({ name: 'renamed-tag' }),
    'POST /v1/teams/{teamId}/routing': json({ name: 'Walk rule', resultTeamId: ids.team }),
    'PATCH /v1/teams/{teamId}/routing/{ruleId}': json({ name: 'Renamed rule' }),
    'POST /v1/teams/{teamId}/routing/reorder': json({ ruleIds: [ids.rule] }),
    'POST /v1/teams/{teamId}/routing/simulate': json({ title: 'Refund please' }),
    'POST /v1/sla-policies': json({ name: 'Walk SLA', targets: { low: { resolution: 480 } } }),
    'PATCH /v1/sla-policies/{id}': json({ name: 'Walked SLA' }),
    'POST /v1/sla-policies/reorder': json({ policyIds: [ids.slaPolicy] }),
    'POST /v1/teams': json({ name: 'Walk team' }),
    'PATCH /v1/teams/{teamId}': json({ name: 'Renamed team' }),
    'POST /v1/teams/{teamId}/members': json({ userId: memberId, isAdmin: true }),
    'POST /v1/custom-field': json({ name: 'Walk field', source: 'ticket', fieldType: 'single_line' }),
    'PATCH /v1/custom-field': json({ fields: [{ fieldId: ids.customField, version: 1, updates: { hintText: 'walk' } }] }),
    'POST /v1/tickets': json({ title: 'Walk ticket', requestorEmail: 'walker@example.com', teamId: ids.team }),
    'PATCH /v1/tickets/{id}': json({ title: 'Walked' }),
    'PATCH /v1/tickets/statuses/{id}': json({ pausesSla: false }),
    'POST /v1/tickets/{id}/tags': json({ tagIds: [ids.teamTag] }),
    'DELETE /v1/tickets/{id}/tags': { query: `tagIds=${ids.teamTag}` },
    'POST /v1/tickets/bulk': json({ ticketIds: [ids.ticket], change: { priorityName: 'High' } }),
    'POST /v1/tickets/{id}/merge': {
      payload: { targetTicketId: ids.mergeTarget },
      ids: { ...ids, ticket: ids.mergeSource ?? '' },
    },
    'POST /v1/tickets/{id}/comment': json({ content: 'Walking by' }),
    'PATCH /v1/tickets/{id}/comments/{commentId}': json({ content: 'Edited' }),
    // What the issue found a member outside the team could do.
    'PATCH /v1/teams/{teamId}/configurations': json({ aiAgentId: ids.agent, aiAgentMode: 'auto' }),
    'PUT /v1/teams/{teamId}/satisfaction-settings': json({
      enabled: true,
      delayMinutes: 0,
      samplingShare: 1,
      cooldownDays: 0,
      skipWhen: { tagIds: [], priorityIds: [] },
    }),
    'POST /v1/accounts/attributes': json({ attribute: 'account_industry', value: 'Walking' }),
    'PUT /v1/accounts/attributes/{id}': json({ value: 'Strolling' }),
    'POST /v1/accounts/contacts': json({ firstName: 'Walker', email: 'walker@walk.example' }),
    'PUT /v1/accounts/contacts/{contactId}': json({ lastName: 'Stroll' }),
    'POST /v1/accounts/notes': json({ accountId: ids.account, content: 'Walked by' }),
    'PUT /v1/accounts/notes/{noteId}': json({ content: 'Edited' }),
    'POST /v1/accounts/notes/{noteId}/attachments': multipartFile('more.txt', 'More'),
    'POST /v1/accounts': json({ name: 'Walk Inc', primaryDomain: 'walk.example' }),
    'PUT /v1/accounts/{id}': json({ description: 'Walked' }),
    'POST /v1/macros': json({ name: 'Walk macro', content: 'Hi', teamId: ids.team }),
    'PATCH /v1/macros/{macroId}': json({ name: 'Renamed macro' }),
    'POST /v1/tickets/{id}/macros/{macroId}/apply': json({}),
    'POST /v1/views': json({ name: 'Walk view', teamId: ids.team }),
    'PATCH /v1/views/{viewId}': json({ name: 'Renamed view' }),
    'POST /v1/webhooks': json({ url: 'https://hooks.walk.example/in', eventTypes: ['ticket.created'] }),
    'PATCH /v1/webhooks/{id}': json({ description: 'Walked' }),
    'POST /v1/mailboxes': json({ address: 'walker@walk.example', teamId: ids.team, displayName: 'Walker', delivery: 'smtp' }),
    'PATCH /v1/mailboxes/{id}': json({ displayName: 'Walked' }),
    'POST /v1/mailboxes/{id}/test': json({ to: 'walker@walk.example' }),
    'PATCH /v1/integrations/slack/channels/{channelId}': json({ kind: 'customer' }),
    'PATCH /v1/integrations/slack/decisions/{id}': json({ mark: 'right' }),
    'POST /v1/config/import': json({ version: 1, teams: [{ name: 'Imported walk team' }] }),
    'POST /help-centers': json({ name: 'Walk help' }),
    'PATCH /help-centers/{id}': json({ name: 'Walked help' }),
    'POST /collections': json({ helpCenterId: ids.helpCenter, name: 'Walk collection' }),
    'PATCH /collections/{id}': json({ name: 'Walked collection' }),
    'POST /articles': json({ title: 'Walk article', collectionId: ids.collection }),
    'PATCH /articles/{id}': json({ title: 'Walked article' }),
    'POST /tags': json({ name: 'walk-help-tag' }),
    'PATCH /tags/{tagId}': json({ name: 'walked-help-tag' }),
    'POST /tags/{tagId}/merge': {
      payload: { intoTagId: ids.helpTag },
      ids: { ...ids, helpTag: ids.mergedHelpTag ?? '' },
    },
    'POST /api/v1/agents': json({ name: 'Walk agent' }),
    'PUT /api/v1/agents/{agent_id}': json({ description: 'Walked' }),
    'POST /api/v1/agents/{agent_id}/tools': json({
      agent_id: ids.agent,
      tool_name: 'knowledge_base_search',
      tool_type: 'built_in',
    }),
    'PUT /api/v1/agents/{agent_id}/tools/{tool_id}': json({ is_enabled: false }),
    'POST /api/v1/chat/{agent_id}/threads': json({ title: 'Walk thread' }),
    'POST /api/v1/chat/{agent_id}/threads/{thread_id}/messages': json({ content: 'Hello', role: 'user' }),
    'POST /api/v1/mcp/agents/{agent_id}/servers': json({ name: 'Walk MCP', url: 'https://mcp.walk.example/other' }),
    'PUT /api/v1/mcp/agents/{agent_id}/servers/{server_id}': json({ name: 'Walked MCP' }),
    'POST /api/v1/model-providers': json({
      name: 'Walk provider',
      kind: 'openai_compatible',
      base_url: 'https://models.walk.example/v1',
      default_model: 'walk-model',
    }),
    'PATCH /api/v1/model-providers/{provider_id}': json({ name: 'Walked provider' }),
    'POST /api/v1/model-providers/{provider_id}/test': json({}),
    'POST /api/v1/agents/{agent_id}/runs/{run_id}/approve': json({}),
    'POST /api/v1/agents/{agent_id}/runs/{run_id}/reject': json({ reason: 'No' }),
  };
}

/** Every row of the organization, table by table (rows of tables without an organization column, whole). */
export async function organizationRows(harness: TestApp, organizationId: string): Promise<Record<string, string[]>> {
  const tables = (await harness.db.introspection.getTables()).filter((table) => !table.name.startsWith('kysely_'));
  const rows = await Promise.all(
    tables.map(async (table) => {
      const column = table.name === 'organizations' ? 'id' : 'organization_id';
      const scoped = table.columns.some((entry) => entry.name === column);
      const query = scoped
        ? sql<Record<string, unknown>>`select * from ${sql.table(table.name)} where ${sql.ref(column)} = ${organizationId}`
        : sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`;
      const result = await query.execute(harness.db);
      return [table.name, result.rows.map((row) => JSON.stringify(row)).sort()] as const;
    }),
  );
  return Object.fromEntries(rows);
}
