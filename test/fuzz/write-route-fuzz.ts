import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../dialects.js';
import { makeOrganization, type TestOrganization } from '../factories.js';
import { buildTestApp, type TestApp } from '../harness.js';
import {
  expectAreaErrorShape,
  makeWriteRouteResources,
  type ResourceIds,
  resolvePath,
  writeOperations,
} from '../write-routes.js';
import { type FuzzBody, fuzzBodies } from './bodies.js';

/**
 * Every write route of the three published documents gets 200 seeded hostile bodies, on real
 * resources of the caller's organization: nothing may answer 5xx, and every failure must be in its
 * area's error shape. A failing case prints its seed label, so it can be replayed.
 *
 * The routes are dealt into `parts` test files (`part` is this file's), each with its own app and
 * resources, so that the longest suite of the run shares out between the workers.
 */
const BODIES_PER_ROUTE = 200;

const OPERATIONS = writeOperations();

/** A stable seed per route, so every run sends the same bodies to the same route. */
const seedOf = (text: string) => [...text].reduce((hash, char) => (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0, 7);

export function describeWriteRouteFuzz(part: number, parts: number): void {
  const operations = OPERATIONS.filter((_, index) => index % parts === part);
  describe.each(DIALECTS)(`hostile bodies on every write route (part ${part + 1} of ${parts}) on %s`, (dialect) => {
    let harness: TestApp;
    let organization: TestOrganization;
    let ids: ResourceIds = {};

    beforeAll(async () => {
      harness = await buildTestApp(dialect);
      organization = await makeOrganization(harness);
      ids = await makeWriteRouteResources(harness, organization);
    }, 60_000);
    afterAll(() => harness?.close());

    // Deleting routes go last, so that the resources the other routes use still exist.
    const ordered = [...operations].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

    it.each(ordered.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
      '%s: no 5xx and errors in the area shape',
      async (_, operation) => {
        // Real ids of this organization where the path names a resource it has; a well-formed unknown id elsewhere.
        const { url } = resolvePath(operation.path, ids, organization.userId);
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
          expect(response.statusCode, `${operation.method} ${url} ${body.label}: ${response.body.slice(0, 300)}`).toBeLessThan(
            500,
          );
          if (response.statusCode >= 400) {
            expectAreaErrorShape(operation.area, operation.path, response.statusCode, response.json(), body.label);
          }
        }
      },
      120_000,
    );
  });
}
