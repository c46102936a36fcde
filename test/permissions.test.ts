import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from './factories.js';
import { buildTestApp, type TestApp } from './harness.js';
import { startModelServer, type TestModelServer } from './model-server.js';
import { readPermissionTable } from './permission-table.js';
import { makeWalkResources, organizationRows, type WalkRequest, walkRequests } from './permission-walk.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';
import { expectAreaErrorShape, type ResourceIds, resolvePath, type WriteOperation, writeOperations } from './write-routes.js';

/**
 * README's "Who may change what" against the code: every write route of the three committed
 * OpenAPI documents is in the table, and each is called on real resources of one organization with
 * the key of another organization's admin, then with the key of a member of the organization's
 * team who does not manage it. Each answer must be the table's, and a refusal must leave every
 * row of the organization as it was.
 */

const TABLE = readPermissionTable();
const OPERATIONS = writeOperations();
const keyOf = (operation: Pick<WriteOperation, 'method' | 'path'>) => `${operation.method} ${operation.path}`;

type Outcome = 'allowed' | 'forbidden' | 'forbidden or hidden';

/**
 * What the walk's member gets under each rule. The member belongs to the team but does not manage
 * it; every resource a path names is the admin's or the team's (the macro and view are shared with
 * the team). `named`: the path names a resource.
 */
const MEMBER_OUTCOME: Record<string, (named: boolean) => Outcome> = {
  'any member': () => 'allowed',
  // Their own hours or notification switches; another's session or thread is hidden.
  'any member, own only': (named) => (named ? 'forbidden or hidden' : 'allowed'),
  // The admin's profile, keys, comment or note, or a run that acted for the admin.
  'admin, or its owner': () => 'forbidden or hidden',
  'admin or team manager': () => 'forbidden',
  // The path names the admin, who is not the member leaving.
  'admin or team manager, or the member leaving': () => 'forbidden',
  "admin; a team's: admin or team manager": () => 'forbidden',
  "any member, own only; a team's: admin or team manager": () => 'forbidden',
  admin: () => 'forbidden',
};

/** Writes in place go first, then deletes, deepest path first, so what a route needs is still there. */
const WALK = OPERATIONS.filter((operation) => !operation.isPublic).sort((a, b) => {
  const deletes = Number(a.method === 'DELETE') - Number(b.method === 'DELETE');
  return deletes !== 0 || a.method !== 'DELETE' ? deletes : b.path.split('/').length - a.path.split('/').length;
});

describe('the permission table in README.md', () => {
  it('defines the rules the walk knows, and only those', () => {
    expect([...TABLE.rules].sort()).toEqual(['public', ...Object.keys(MEMBER_OUTCOME)].sort());
  });

  it('names every write route of the three documents once, with a rule of its legend, and no other route', () => {
    const published = OPERATIONS.map(keyOf);
    expect(
      published.filter((key) => !TABLE.routes.has(key)),
      'routes missing from the table',
    ).toEqual([]);
    expect(
      [...TABLE.routes.keys()].filter((key) => !published.includes(key)),
      'rows of no published route',
    ).toEqual([]);
    expect(TABLE.duplicates).toEqual([]);
    const unknown = [...TABLE.routes].filter(([, rule]) => !TABLE.rules.includes(rule));
    expect(unknown, 'rows whose rule the legend does not define').toEqual([]);
  });

  it('says public exactly of the routes the documents publish without a key', () => {
    const isPublic = OPERATIONS.filter((operation) => operation.isPublic).map(keyOf);
    const saidPublic = [...TABLE.routes].filter(([, rule]) => rule === 'public').map(([key]) => key);
    expect(saidPublic.sort()).toEqual(isPublic.sort());
  });
});

describe.each(DIALECTS)('who may change what, route by route, on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let member: Awaited<ReturnType<typeof makeUser>>;
  let model: TestModelServer;
  let receiver: WebhookReceiver;
  let ids: ResourceIds = {};
  let requests: Record<string, WalkRequest> = {};
  /** The organization's rows as the last request left them. */
  let rows: Record<string, string[]> | null = null;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
    [model, receiver] = await Promise.all([startModelServer(), startWebhookReceiver(harness.clock)]);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    member = await makeUser(harness, acme.organizationId, { name: 'Mia Member' });
    ids = await makeWalkResources(harness, acme, member, { model, receiver });
    requests = walkRequests(ids, member.userId);
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
    await Promise.all([model?.close(), receiver?.close()]);
  });

  const acmeRows = async () => {
    rows ??= await organizationRows(harness, acme.organizationId);
    return rows;
  };

  /** Tables whose rows differ from `before`, with the rows that came and went; the rows now are kept for the next look. */
  async function changedRows(before: Record<string, string[]>) {
    rows = await organizationRows(harness, acme.organizationId);
    const changed: Record<string, { added: string[]; removed: string[] }> = {};
    for (const [table, after] of Object.entries(rows)) {
      const was = before[table] ?? [];
      const added = after.filter((row) => !was.includes(row));
      const removed = was.filter((row) => !after.includes(row));
      if (added.length > 0 || removed.length > 0) {
        changed[table] = { added, removed };
      }
    }
    return changed;
  }

  function send(operation: WriteOperation, headers: Record<string, string>) {
    const request = requests[keyOf(operation)] ?? {};
    const { url, missing } = resolvePath(operation.path, request.ids ?? ids, acme.userId);
    expect(missing, `${keyOf(operation)}: no resource for these parameters`).toEqual([]);
    const hasBody = request.payload !== undefined;
    return harness.app.inject({
      method: operation.method,
      url: request.query ? `${url}?${request.query}` : url,
      headers: hasBody ? { ...headers, 'content-type': request.contentType ?? 'application/json' } : headers,
      ...(hasBody ? { payload: request.payload as InjectOptions['payload'] } : {}),
    });
  }

  it.each(WALK.map((operation) => [keyOf(operation), operation] as const))('%s', async (key, operation) => {
    const rule = TABLE.routes.get(key);
    const outcome = rule === undefined ? undefined : MEMBER_OUTCOME[rule];
    if (outcome === undefined) {
      throw new Error(`${key} has no known rule in README's permission table (${rule})`);
    }
    if (operation.schema && requests[key]?.payload === undefined) {
      throw new Error(`${key} takes a body: give the walk one in test/permission-walk.ts`);
    }
    const named = operation.path.includes('{');

    // Another organization's admin: its ids are unknown there, and nothing of this organization changes.
    const untouched = await acmeRows();
    const foreign = await send(operation, globex.headers);
    const foreignWrote = await changedRows(untouched);
    const answer = `${foreign.statusCode} ${foreign.body.slice(0, 300)}`;
    if (named) {
      expect(foreign.statusCode, `another organization's admin: ${answer}`).toBe(404);
      expectAreaErrorShape(operation.area, operation.path, 404, foreign.json(), 'another organization');
    } else {
      expect(foreign.statusCode, `another organization's admin: ${answer}`).toBeLessThan(500);
    }
    expect(foreignWrote, `another organization's admin wrote: ${answer}`).toEqual({});

    // The member.
    const expected = outcome(named);
    const before = await acmeRows();
    const response = await send(operation, member.headers);
    // The rows are read again after every answer: an allowed write changes them, and a failed check must not leave them stale.
    const memberWrote = await changedRows(before);
    const said = `the member (${rule}): ${response.statusCode} ${response.body.slice(0, 300)}`;
    expect(operation.statuses, `${said}: not a status the route documents`).toContain(response.statusCode);
    if (expected === 'allowed') {
      expect(response.statusCode, said).toBeLessThan(300);
      return;
    }
    expect(expected === 'forbidden' ? [403] : [403, 404], said).toContain(response.statusCode);
    expectAreaErrorShape(operation.area, operation.path, response.statusCode, response.json(), 'the member');
    expect(memberWrote, `a refusal wrote: ${said}`).toEqual({});
  });
});
