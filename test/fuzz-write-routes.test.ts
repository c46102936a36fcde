import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './dialects.js';
import { makeOrganization, type TestOrganization } from './factories.js';
import { type FuzzBody, fuzzBodies } from './fuzz/bodies.js';
import { buildTestApp, type TestApp } from './harness.js';

/**
 * Every write route of the three published documents gets 200 seeded hostile bodies, on real
 * resources of the caller's organization: nothing may answer 5xx, and every failure must be in its
 * area's error shape. A failing case prints its seed label, so it can be replayed.
 */
const BODIES_PER_ROUTE = 200;

interface Operation {
  method: string;
  /** OpenAPI path, e.g. `/v1/tickets/{id}`. */
  path: string;
  schema: Record<string, unknown> | undefined;
}

function writeOperations(): Operation[] {
  const operations: Operation[] = [];
  for (const file of ['platform.json', 'help-center.json', 'agent-studio.json']) {
    const document = JSON.parse(readFileSync(new URL(`../openapi/${file}`, import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> } }>>;
    };
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (['post', 'put', 'patch', 'delete'].includes(method)) {
          operations.push({
            method: method.toUpperCase(),
            path,
            schema: operation.requestBody?.content?.['application/json']?.schema,
          });
        }
      }
    }
  }
  return operations;
}

const OPERATIONS = writeOperations();

type Area = 'platform' | 'helpCenter' | 'agentStudio';
const areaOf = (path: string): Area =>
  path.startsWith('/api/v1') ? 'agentStudio' : path.startsWith('/v1') ? 'platform' : 'helpCenter';

/** The error body of each area, as its OpenAPI document publishes it. */
function expectAreaErrorShape(area: Area, path: string, status: number, body: unknown, label: string): void {
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

/** A stable seed per route, so every run sends the same bodies to the same route. */
const seedOf = (text: string) => [...text].reduce((hash, char) => (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0, 7);

describe.each(DIALECTS)('hostile bodies on every write route on %s', (dialect) => {
  let harness: TestApp;
  let organization: TestOrganization;
  const ids: Record<string, string> = {};

  async function create(url: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    const response = await harness.app.inject({ method: 'POST', url, headers: organization.headers, payload });
    expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(300);
    const json = response.json() as Record<string, unknown>;
    return (json.data ?? json) as Record<string, unknown>;
  }

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    organization = await makeOrganization(harness);
    const team = await create('/v1/teams', { name: 'Fuzz team' });
    ids.team = String(team.id);
    const ticket = await create('/v1/tickets', {
      title: 'Fuzz ticket',
      requestorEmail: 'customer@example.com',
      teamId: ids.team,
    });
    ids.ticket = String(ticket.id);
    const comment = await create(`/v1/tickets/${ids.ticket}/comment`, { content: 'First' });
    ids.comment = String(comment.id ?? (comment.comment as Record<string, unknown> | undefined)?.id);
    const tag = await create(`/v1/teams/${ids.team}/tags`, { name: 'fuzz' });
    ids.teamTag = String(tag.id ?? tag.uuid);
    const rule = await create(`/v1/teams/${ids.team}/routing`, { name: 'Fuzz rule', resultTeamId: ids.team });
    ids.rule = String(rule.id);
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
    // A key of its own for the key-revoking route, so the fuzzing caller keeps its key.
    const key = await create(`/v1/users/${organization.userId}/api-keys`, {});
    ids.apiKeyPrefix = String(key.prefix);
  }, 60_000);
  afterAll(() => harness?.close());

  /** Real ids of this organization where the path names a resource it has; a well-formed unknown id elsewhere. */
  function concretePath(path: string): string {
    const byParameter: Record<string, string | undefined> = {
      teamUuid: ids.team,
      teamId: ids.team,
      tagUuid: ids.teamTag,
      ruleId: ids.rule,
      commentId: ids.comment,
      userId: organization.userId,
      prefix: ids.apiKeyPrefix,
      uid: ids.customField,
      contactId: ids.contact,
      noteId: ids.note,
      attachmentId: '01J00000000000000000000000',
      tagId: ids.helpTag,
      agent_id: ids.agent,
      thread_id: ids.thread,
      tool_id: '00000000-0000-4000-8000-000000000000',
      server_id: '00000000-0000-4000-8000-000000000000',
      macroId: ids.macro,
      viewId: ids.view,
    };
    const byCollection: [RegExp, string | undefined][] = [
      [/^\/v1\/tickets\/\{id\}/, ids.ticket],
      [/^\/v1\/accounts\/attributes\/\{id\}/, ids.attribute],
      [/^\/v1\/accounts\/\{id\}/, ids.account],
      [/^\/help-centers\/\{id\}/, ids.helpCenter],
      [/^\/collections\/\{id\}/, ids.collection],
      [/^\/articles\/\{id\}/, ids.article],
    ];
    const id = byCollection.find(([pattern]) => pattern.test(path))?.[1];
    return path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'id' ? (id ?? 'unknown') : (byParameter[name] ?? 'unknown'),
    );
  }

  // Deleting routes go last, so that the resources the other routes use still exist.
  const ordered = [...OPERATIONS].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

  it.each(ordered.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    '%s: no 5xx and errors in the area shape',
    async (_, operation) => {
      const url = concretePath(operation.path);
      const area = areaOf(operation.path);
      const known = {
        teamId: ids.team,
        resultTeamId: ids.team,
        fallbackTeamId: ids.team,
        parentTeamId: ids.team,
        accountId: ids.account,
        userId: organization.userId,
        assignedAgentId: organization.userId,
        accountOwnerId: organization.userId,
        parentCommentId: ids.comment,
        helpCenterId: ids.helpCenter,
        collectionId: ids.collection,
        agent_id: ids.agent,
      } as Record<string, string>;
      const bodies: FuzzBody[] = fuzzBodies(
        seedOf(`${operation.method} ${operation.path}`),
        operation.schema,
        BODIES_PER_ROUTE,
        known,
      );
      expect(bodies).toHaveLength(BODIES_PER_ROUTE);
      for (const body of bodies) {
        const response = await harness.app.inject({
          method: operation.method as 'POST',
          url,
          headers: { ...organization.headers, 'content-type': body.contentType },
          payload: body.payload,
        });
        expect(response.statusCode, `${operation.method} ${url} ${body.label}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
        if (response.statusCode >= 400) {
          expectAreaErrorShape(area, operation.path, response.statusCode, response.json(), body.label);
        }
      }
    },
    120_000,
  );
});
