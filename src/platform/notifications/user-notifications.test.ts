import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';

describe.each(DIALECTS)("an admin's view of a user's notification switches on %s", (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let ada: { userId: string; headers: { 'x-api-key': string } };

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness, { name: 'Acme' });
    globex = await makeOrganization(harness, { name: 'Globex' });
    ada = await makeUser(harness, acme.organizationId);
  });
  afterAll(() => harness.close());

  const read = (userId: string, headers: Record<string, string>) =>
    harness.app.inject({ url: `/v1/users/${userId}/notifications`, headers });
  const change = (userId: string, headers: Record<string, string>, payload: unknown) =>
    harness.app.inject({ method: 'PATCH', url: `/v1/users/${userId}/notifications`, headers, payload: payload as object });
  const rows = async () => (await harness.db.selectFrom('user_notification_preferences').selectAll().execute()).length;

  it("reads a user's defaults, changes them, and the user sees the change as their own", async () => {
    const defaults = await read(ada.userId, acme.headers);
    expect(defaults.statusCode, defaults.body).toBe(200);
    expect(defaults.json().data).toEqual({
      userId: ada.userId,
      assigned: true,
      customerReply: true,
      mentioned: true,
      teamUnassigned: true,
      slaAlerts: true,
      updatedAt: null,
    });
    const changed = await change(ada.userId, acme.headers, { mentioned: false });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ mentioned: false, assigned: true, updatedAt: TEST_NOW });
    const own = await harness.app.inject({ url: '/v1/users/me/notifications', headers: ada.headers });
    expect(own.json().data).toEqual(changed.json().data);
  });

  it("refuses members (403) and another organization's admin (404), and writes nothing", async () => {
    const before = await rows();
    expect((await read(acme.userId, ada.headers)).statusCode).toBe(403);
    expect((await change(acme.userId, ada.headers, { assigned: false })).statusCode).toBe(403);
    expect((await read(ada.userId, globex.headers)).statusCode).toBe(404);
    expect((await change(ada.userId, globex.headers, { assigned: false })).statusCode).toBe(404);
    expect((await change('01J00000000000000000000000', acme.headers, { assigned: false })).statusCode).toBe(404);
    expect(await rows()).toBe(before);
  });

  it.each([
    [{ assigned: 'no' }, /^assigned\b/],
    [{ everything: false }, /^everything\b/],
  ])('refuses %j with a 400 naming the field, and writes nothing', async (payload, message) => {
    const before = await rows();
    const response = await change(acme.userId, acme.headers, payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(message);
    expect(await rows()).toBe(before);
  });
});
