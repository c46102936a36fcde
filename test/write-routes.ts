import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { TestOrganization } from './factories.js';
import type { TestApp } from './harness.js';
import { makeSlackDecision } from './slack-app.js';

/**
 * The write routes of the three committed OpenAPI documents, the error shape of each area, and
 * real resources of one organization for their path parameters: what the tests that walk every
 * write route (hostile bodies, permissions) share.
 */

export type Area = 'platform' | 'helpCenter' | 'agentStudio';

export interface WriteOperation {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI path, e.g. `/v1/tickets/{id}`. */
  path: string;
  area: Area;
  /** The JSON body's schema, when the route takes one. */
  schema: Record<string, unknown> | undefined;
  /** `security: []`: the route takes no key. */
  isPublic: boolean;
  /** The statuses the route documents. */
  statuses: number[];
}

interface DocumentOperation {
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
  security?: unknown[];
  responses?: Record<string, unknown>;
}

export const areaOf = (path: string): Area =>
  path.startsWith('/api/v1') ? 'agentStudio' : path.startsWith('/v1') ? 'platform' : 'helpCenter';

/** Every POST, PUT, PATCH and DELETE the three documents publish: new routes are covered as they land. */
export function writeOperations(): WriteOperation[] {
  const operations: WriteOperation[] = [];
  for (const file of ['platform.json', 'help-center.json', 'agent-studio.json']) {
    const document = JSON.parse(readFileSync(new URL(`../openapi/${file}`, import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, DocumentOperation>>;
    };
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (['post', 'put', 'patch', 'delete'].includes(method)) {
          operations.push({
            method: method.toUpperCase() as WriteOperation['method'],
            path,
            area: areaOf(path),
            schema: operation.requestBody?.content?.['application/json']?.schema,
            isPublic: Array.isArray(operation.security) && operation.security.length === 0,
            statuses: Object.keys(operation.responses ?? {}).map(Number),
          });
        }
      }
    }
  }
  return operations;
}

/** The error body of each area, as its OpenAPI document publishes it. */
export function expectAreaErrorShape(area: Area, path: string, status: number, body: unknown, label: string): void {
  const where = `${path} ${label} → ${status} ${JSON.stringify(body).slice(0, 300)}`;
  const object = body as Record<string, unknown>;
  if (area === 'agentStudio') {
    expect(Object.keys(object), where).toEqual(['detail']);
    if (status === 422) {
      expect(Array.isArray(object.detail), where).toBe(true);
      for (const entry of object.detail as Record<string, unknown>[]) {
        expect(Object.keys(entry).sort(), where).toEqual(['loc', 'msg', 'type']);
      }
    } else {
      expect(typeof object.detail, where).toBe('string');
    }
    return;
  }
  if (area === 'platform' && path.startsWith('/v1/custom-field')) {
    expect(Object.keys(object).sort(), where).toEqual(['message', 'statusCode', 'timestamp']);
  } else if (area === 'platform') {
    expect(Object.keys(object).sort(), where).toEqual(['error', 'message', 'statusCode']);
  } else {
    expect(Object.keys(object).sort(), where).toEqual(['message', 'statusCode']);
  }
  expect(object.statusCode, where).toBe(status);
  expect(typeof object.message, where).toBe('string');
}

/** Ids of the resources `makeWriteRouteResources` made, by name (`team`, `ticket`, `helpCenter`…). */
export type ResourceIds = Record<string, string>;

/** POSTs as the organization's admin and answers the created object (`data`, or the bare body). */
export async function createAs(
  harness: TestApp,
  organization: TestOrganization,
  url: string,
  payload: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await harness.app.inject({ method: 'POST', url, headers: organization.headers, payload });
  expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
  const json = response.json() as Record<string, unknown>;
  return (json.data ?? json) as Record<string, unknown>;
}

/** One of each resource the write routes name, made through the API by the organization's admin. */
export async function makeWriteRouteResources(harness: TestApp, organization: TestOrganization): Promise<ResourceIds> {
  const create = (url: string, payload: Record<string, unknown>) => createAs(harness, organization, url, payload);
  const ids: ResourceIds = {};
  const team = await create('/v1/teams', { name: 'Fuzz team' });
  ids.team = String(team.id);
  const ticket = await create('/v1/tickets', {
    title: 'Fuzz ticket',
    requestorEmail: 'customer@example.com',
    teamId: ids.team,
  });
  ids.ticket = String(ticket.id);
  const statuses = await harness.app.inject({ url: `/v1/tickets/statuses?teamId=${ids.team}`, headers: organization.headers });
  ids.status = String((statuses.json().data as { id: string; name: string }[]).find((status) => status.name === 'On hold')?.id);
  const comment = await create(`/v1/tickets/${ids.ticket}/comment`, { content: 'First' });
  ids.comment = String(comment.id ?? (comment.comment as Record<string, unknown> | undefined)?.id);
  // Creating a tag answers every tag of the team.
  const tags = (await create(`/v1/teams/${ids.team}/tags`, { name: 'fuzz' })).items as { id: string; name: string }[];
  ids.teamTag = String(tags.find((tag) => tag.name === 'fuzz')?.id);
  const rule = await create(`/v1/teams/${ids.team}/routing`, { name: 'Fuzz rule', resultTeamId: ids.team });
  ids.rule = String(rule.id);
  const slaPolicy = await create('/v1/sla-policies', { name: 'Fuzz SLA', targets: { high: { firstReply: 60 } } });
  ids.slaPolicy = String(slaPolicy.id);
  const account = await create('/v1/accounts', { name: 'Fuzz Inc', primaryDomain: 'fuzz.example' });
  ids.account = String(account.id);
  const contact = await create('/v1/accounts/contacts', { firstName: 'Fuzz', email: 'fuzz@fuzz.example' });
  ids.contact = String(contact.id);
  const note = await create('/v1/accounts/notes', { accountId: ids.account, content: 'A note' });
  ids.note = String(note.id);
  const attribute = await create('/v1/accounts/attributes', { attribute: 'account_industry', value: 'Fuzzing' });
  ids.attribute = String(attribute.id);
  const field = await create('/v1/custom-field', { name: 'Fuzz field', source: 'ticket', fieldType: 'single_line' });
  ids.customField = String(field.uid ?? field.id);
  const helpCenter = await create('/help-centers', { name: 'Fuzz help' });
  ids.helpCenter = String(helpCenter._id ?? helpCenter.id);
  const collection = await create('/collections', { helpCenterId: ids.helpCenter, name: 'Fuzz collection' });
  ids.collection = String(collection._id ?? collection.id);
  const article = await create('/articles', { title: 'Fuzz article', collectionId: ids.collection });
  ids.article = String(article._id ?? article.id);
  const helpTag = await create('/tags', { name: 'fuzz-tag' });
  ids.helpTag = String(helpTag._id ?? helpTag.id);
  const agent = await create('/api/v1/agents', { name: 'Fuzz agent' });
  ids.agent = String(agent.id);
  const thread = await create(`/api/v1/chat/${ids.agent}/threads`, { title: 'Fuzz thread' });
  ids.thread = String(thread.id);
  const macro = await create('/v1/macros', { name: 'Fuzz macro', content: 'Hi {{requestor.firstName}}' });
  ids.macro = String(macro.id);
  const view = await create('/v1/views', { name: 'Fuzz view', filters: { isClosed: false } });
  ids.view = String(view.id);
  // A key of its own for the key-revoking route, so the caller keeps its key.
  const key = await create(`/v1/users/${organization.userId}/api-keys`, {});
  ids.apiKeyPrefix = String(key.prefix);
  // A Slack channel needs no row (the walk's organization has no workspace installed); a decision is the inbound worker's.
  ids.slackChannel = 'C0WALK';
  ids.slackDecision = (await makeSlackDecision(harness, organization.organizationId, { channel_id: ids.slackChannel })).id;
  return ids;
}

/** Well-formed ids that name nothing, for parameters of resources `ids` does not hold. */
const UNKNOWN_ULID = '01J00000000000000000000000';
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

/**
 * The URL of `path` with real ids of the organization where `ids` has the resource a parameter
 * names, and a well-formed unknown id where it has none; `missing` lists the parameters filled
 * without a real id ('unknown' in the URL where not even a well-formed id is known).
 */
export function resolvePath(path: string, ids: ResourceIds, userId: string): { url: string; missing: string[] } {
  const byParameter: Record<string, string | undefined> = {
    teamUuid: ids.team,
    teamId: ids.team,
    tagUuid: ids.teamTag,
    ruleId: ids.rule,
    commentId: ids.comment,
    userId,
    prefix: ids.apiKeyPrefix,
    uid: ids.customField,
    contactId: ids.contact,
    noteId: ids.note,
    attachmentId: ids.noteAttachment,
    tagId: ids.helpTag,
    agent_id: ids.agent,
    thread_id: ids.thread,
    tool_id: ids.agentTool,
    server_id: ids.mcpServer,
    provider_id: ids.modelProvider,
    run_id: ids.run,
    macroId: ids.macro,
    viewId: ids.view,
    sessionId: ids.session,
    deliveryId: ids.webhookDelivery,
    channelId: ids.slackChannel,
  };
  const fallback: Record<string, string> = { attachmentId: UNKNOWN_ULID, tool_id: UNKNOWN_UUID, server_id: UNKNOWN_UUID };
  const byCollection: [RegExp, string | undefined][] = [
    [/^\/v1\/tickets\/statuses\/\{id\}/, ids.status],
    [/^\/v1\/tickets\/\{id\}/, ids.ticket],
    [/^\/v1\/accounts\/attributes\/\{id\}/, ids.attribute],
    [/^\/v1\/accounts\/\{id\}/, ids.account],
    [/^\/v1\/webhooks\/\{id\}/, ids.webhook],
    [/^\/v1\/sla-policies\/\{id\}/, ids.slaPolicy],
    [/^\/v1\/mailboxes\/\{id\}/, ids.mailbox],
    [/^\/v1\/outbox\/\{id\}/, ids.outbox],
    [/^\/v1\/integrations\/slack\/decisions\/\{id\}/, ids.slackDecision],
    [/^\/help-centers\/\{id\}/, ids.helpCenter],
    [/^\/collections\/\{id\}/, ids.collection],
    [/^\/articles\/\{id\}/, ids.article],
  ];
  const missing: string[] = [];
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const id = name === 'id' ? byCollection.find(([pattern]) => pattern.test(path))?.[1] : byParameter[name];
    if (id === undefined) {
      missing.push(name);
    }
    return id ?? fallback[name] ?? 'unknown';
  });
  return { url, missing };
}
