import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeTeam, makeUser, type TestOrganization, type TestTeam } from '../../../test/factories.js';
import { buildTestApp, TEST_NOW, type TestApp } from '../../../test/harness.js';

describe.each(DIALECTS)('tickets on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let globex: TestOrganization;
  let desk: TestTeam;
  let member: Awaited<ReturnType<typeof makeUser>>;

  beforeAll(async () => {
    harness = await buildTestApp(dialect);
    acme = await makeOrganization(harness);
    globex = await makeOrganization(harness);
    desk = await makeTeam(harness, acme, { name: 'Wednesday', identifier: 'WED' });
    member = await makeUser(harness, acme.organizationId, { name: 'Mia', email: 'mia@acme.test' });
  });
  afterAll(() => harness.close());

  const create = (payload: object, headers = acme.headers) =>
    harness.app.inject({ method: 'POST', url: '/v1/tickets', headers, payload });
  const ticketCount = async () =>
    (
      await harness.db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  it('creates a ticket: 201, numbered in its team, default status and priority, requestor contact made', async () => {
    const response = await create({
      title: 'Printer on fire',
      requestorEmail: 'Pat@Customer.test',
      teamId: desk.teamId,
      description: 'Smoke',
    });
    expect(response.statusCode).toBe(201);
    const ticket = response.json().data;
    expect(ticket).toMatchObject({
      ticketId: 1,
      ticketIdentifier: 'WED-1',
      title: 'Printer on fire',
      description: 'Smoke',
      status: 'Open',
      isClosed: false,
      priority: 'Medium',
      type: null,
      teamId: desk.teamId,
      teamName: 'Wednesday',
      teamIdentifier: 'WED',
      isPrivate: false,
      assignedAgentId: null,
      requestorEmail: 'Pat@Customer.test',
      customerContactEmail: 'Pat@Customer.test',
      customerContactFirstName: 'Pat',
      customFieldValues: [],
      createdAt: TEST_NOW,
      deletedAt: null,
    });
    const again = (await create({ title: 'Still smoking', requestorEmail: 'pat@customer.test', teamId: desk.teamId })).json()
      .data;
    expect(again.ticketIdentifier).toBe('WED-2');
    expect(again.customerContactId).toBe(ticket.customerContactId);
    expect((await harness.app.inject({ url: `/v1/tickets/${ticket.id}`, headers: acme.headers })).json().data).toEqual(ticket);
  });

  it('lists the statuses and priorities every team starts with', async () => {
    const statuses = (
      await harness.app.inject({ url: `/v1/tickets/statuses?teamId=${desk.teamId}`, headers: acme.headers })
    ).json().data;
    expect(statuses.map((s: { name: string }) => s.name)).toEqual(['Open', 'In progress', 'On hold', 'Closed']);
    expect(statuses.find((s: { isDefault: boolean }) => s.isDefault).name).toBe('Open');
    expect(statuses.find((s: { isClosed: boolean }) => s.isClosed).name).toBe('Closed');
    const priorities = (
      await harness.app.inject({ url: `/v1/tickets/priorities?teamId=${desk.teamId}`, headers: acme.headers })
    ).json().data;
    expect(priorities.map((p: { name: string }) => p.name)).toEqual(['Low', 'Medium', 'High', 'Urgent']);
    expect(priorities.find((p: { isDefault: boolean }) => p.isDefault).name).toBe('Medium');
    const missing = await harness.app.inject({ url: '/v1/tickets/statuses', headers: acme.headers });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('teamId is required');
  });

  it('takes status, priority and agent by name or email, and closing sets closedAt', async () => {
    const ticket = (
      await create({
        title: 'Refund',
        requestorEmail: 'r@customer.test',
        teamId: desk.teamId,
        statusName: 'in progress',
        priorityName: 'URGENT',
        assignedAgentEmail: 'mia@acme.test',
        isPrivate: false,
        metadata: { channel: 'phone' },
        dueDate: '2026-02-01T12:00:00Z',
      })
    ).json().data;
    expect(ticket).toMatchObject({
      status: 'In progress',
      priority: 'Urgent',
      assignedAgentId: member.userId,
      assignedAgent: 'Mia',
      metadata: { channel: 'phone' },
      dueDate: '2026-02-01T12:00:00.000Z',
    });
    const closed = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/tickets/${ticket.id}`,
      headers: acme.headers,
      payload: { statusName: 'Closed', title: 'Refund issued', assignedAgentId: null },
    });
    expect(closed.statusCode).toBe(200);
    expect(closed.json().data).toMatchObject({
      status: 'Closed',
      isClosed: true,
      closedAt: TEST_NOW,
      title: 'Refund issued',
      assignedAgentId: null,
    });
  });

  it.each([
    [{ requestorEmail: 'a@b.test', teamId: '01KAAAAAAAAAAAAAAAAAAAAAAA' }, 'title is required'],
    [{ title: 'x', teamId: '01KAAAAAAAAAAAAAAAAAAAAAAA' }, 'requestorEmail is required'],
    [{ title: 'x', requestorEmail: 'nope', teamId: '01KAAAAAAAAAAAAAAAAAAAAAAA' }, 'requestorEmail must be a valid email'],
    [{ title: '', requestorEmail: 'a@b.test', teamId: '01KAAAAAAAAAAAAAAAAAAAAAAA' }, 'title must be at least 1 characters long'],
    [{ title: 'x', requestorEmail: 'a@b.test', teamId: 'bad' }, 'teamId has an invalid format'],
    [
      { title: 'x', requestorEmail: 'a@b.test', teamId: '01KAAAAAAAAAAAAAAAAAAAAAAA', isPrivate: 'no' },
      'isPrivate must be a boolean',
    ],
    [
      { title: 'x', requestorEmail: 'a@b.test', teamId: '01KAAAAAAAAAAAAAAAAAAAAAAA', colour: 'red' },
      'colour is not an accepted field',
    ],
  ])('rejects %j with a 400 naming the field', async (payload, message) => {
    const before = await ticketCount();
    const response = await create(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message, error: 'Bad Request' });
    expect(await ticketCount()).toBe(before);
  });

  it.each([
    [{ statusName: 'Exploded' }, 'statusName must be one of: Open, In progress, On hold, Closed'],
    [{ priorityId: '01KAAAAAAAAAAAAAAAAAAAAAAA' }, "priorityId is not one of the team's options"],
    [{ assignedAgentEmail: 'ghost@acme.test' }, 'assignedAgentEmail must be a user of the organization'],
  ])('rejects references that name nothing (%j), writing nothing', async (extra, message) => {
    const before = await ticketCount();
    const response = await create({ title: 'x', requestorEmail: 'a@b.test', teamId: desk.teamId, ...extra });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    expect(await ticketCount()).toBe(before);
  });

  it("another organization's team, ticket and agent are not reachable", async () => {
    const foreignTeam = await makeTeam(harness, globex);
    const intoForeign = await create({ title: 'x', requestorEmail: 'a@b.test', teamId: foreignTeam.teamId });
    expect(intoForeign.statusCode).toBe(404);
    expect(intoForeign.json().message).toBe('Team not found!');
    const foreignAgent = await create({
      title: 'x',
      requestorEmail: 'a@b.test',
      teamId: desk.teamId,
      assignedAgentId: globex.userId,
    });
    expect(foreignAgent.statusCode).toBe(400);

    const foreignTicket = (
      await create({ title: 'theirs', requestorEmail: 'a@b.test', teamId: foreignTeam.teamId }, globex.headers)
    ).json().data;
    for (const route of [
      { method: 'GET', url: `/v1/tickets/${foreignTicket.id}` },
      { method: 'PATCH', url: `/v1/tickets/${foreignTicket.id}`, payload: { title: 'mine' } },
      { method: 'DELETE', url: `/v1/tickets/${foreignTicket.id}` },
      { method: 'GET', url: `/v1/tickets/${foreignTicket.id}/comments` },
      { method: 'POST', url: `/v1/tickets/${foreignTicket.id}/comment`, payload: { content: 'hi' } },
    ] as const) {
      const response = await harness.app.inject({ ...route, headers: acme.headers });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, message: 'Ticket not found!', error: 'Not Found' });
    }
    const list = (await harness.app.inject({ url: '/v1/tickets?limit=100', headers: acme.headers })).json().data;
    expect(list.map((t: { id: string }) => t.id)).not.toContain(foreignTicket.id);
    const statuses = await harness.app.inject({
      url: `/v1/tickets/statuses?teamId=${foreignTeam.teamId}`,
      headers: acme.headers,
    });
    expect(statuses.statusCode).toBe(404);
  });

  it('lists newest first with 0-based pages, filtered by team', async () => {
    const team = await makeTeam(harness, acme, { identifier: 'PAGE' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      harness.clock.advance(1000);
      ids.push((await create({ title: `t${i}`, requestorEmail: 'p@customer.test', teamId: team.teamId })).json().data.id);
    }
    const page = async (n: number) =>
      (await harness.app.inject({ url: `/v1/tickets?teamId=${team.teamId}&page=${n}&limit=2`, headers: acme.headers }))
        .json()
        .data.map((t: { id: string }) => t.id);
    expect([...(await page(0)), ...(await page(1)), ...(await page(2))]).toEqual([...ids].reverse());
    expect(await page(3)).toEqual([]);
    const bad = await harness.app.inject({ url: '/v1/tickets?page=-1', headers: acme.headers });
    expect(bad.json().message).toBe('page must be at least 0');
  });

  it('private tickets are only for members of their team and admins', async () => {
    const team = await makeTeam(harness, acme, { identifier: 'PRIV' });
    const secret = (await create({ title: 'secret', requestorEmail: 'a@b.test', teamId: team.teamId, isPrivate: true })).json()
      .data;
    expect((await harness.app.inject({ url: `/v1/tickets/${secret.id}`, headers: acme.headers })).statusCode).toBe(200);
    expect((await harness.app.inject({ url: `/v1/tickets/${secret.id}`, headers: member.headers })).statusCode).toBe(404);
    const listed = (await harness.app.inject({ url: `/v1/tickets?teamId=${team.teamId}`, headers: member.headers })).json().data;
    expect(listed).toEqual([]);
  });

  it('soft-deletes: the ticket answers 404 afterwards but stays in the database', async () => {
    const ticket = (await create({ title: 'gone', requestorEmail: 'a@b.test', teamId: desk.teamId })).json().data;
    const deleted = await harness.app.inject({ method: 'DELETE', url: `/v1/tickets/${ticket.id}`, headers: acme.headers });
    expect(deleted.statusCode).toBe(200);
    const now = harness.clock.now().toISOString();
    expect(deleted.json().data.deletedAt).toBe(now);
    expect((await harness.app.inject({ url: `/v1/tickets/${ticket.id}`, headers: acme.headers })).statusCode).toBe(404);
    const row = await harness.db.selectFrom('tickets').select('deleted_at').where('id', '=', ticket.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).toBe(now);
  });

  it('checks customFieldValues against their definitions and merges them on update', async () => {
    const team = await makeTeam(harness, acme, { identifier: 'CF' });
    const define = async (payload: object) =>
      (await harness.app.inject({ method: 'POST', url: '/v1/custom-field', headers: acme.headers, payload })).json().data;
    const seats = await define({
      name: 'Seats',
      source: 'ticket',
      fieldType: 'integer',
      teamId: team.teamId,
      mandatoryOnCreation: true,
    });
    const plan = await define({
      name: 'Plan',
      source: 'ticket',
      fieldType: 'single_choice',
      options: [{ value: 'Pro' }, { value: 'Free' }],
    });
    const accountField = await define({ name: 'Region', source: 'account', fieldType: 'single_line' });
    const base = { title: 'cf', requestorEmail: 'cf@customer.test', teamId: team.teamId };

    const missing = await create({ ...base, customFieldValues: [{ fieldId: plan.uid, value: 'Pro' }] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('Seats');
    const wrongType = await create({ ...base, customFieldValues: [{ fieldId: seats.uid, value: 'many' }] });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toContain('customFieldValues.0.value');
    const wrongSource = await create({
      ...base,
      customFieldValues: [
        { fieldId: seats.uid, value: 3 },
        { fieldId: accountField.uid, value: 'EU' },
      ],
    });
    expect(wrongSource.statusCode).toBe(400);
    const wrongOption = await create({
      ...base,
      customFieldValues: [
        { fieldId: seats.uid, value: 3 },
        { fieldId: plan.uid, value: 'Gold' },
      ],
    });
    expect(wrongOption.statusCode).toBe(400);

    const created = await create({ ...base, customFieldValues: [{ fieldId: seats.uid, value: 3 }] });
    expect(created.statusCode).toBe(201);
    const ticket = created.json().data;
    expect(ticket.customFieldValues).toEqual([{ fieldId: seats.uid, value: 3 }]);
    const updated = await harness.app.inject({
      method: 'PATCH',
      url: `/v1/tickets/${ticket.id}`,
      headers: acme.headers,
      payload: { customFieldValues: [{ fieldId: plan.uid, value: 'pro' }] },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data.customFieldValues).toEqual(
      expect.arrayContaining([
        { fieldId: seats.uid, value: 3 },
        { fieldId: plan.uid, value: 'Pro' },
      ]),
    );
  });

  it("links an account of the organization and shows its name; another organization's account is a 400", async () => {
    const account = (
      await harness.app.inject({
        method: 'POST',
        url: '/v1/accounts',
        headers: acme.headers,
        payload: { name: 'Initech', primaryDomain: 'initech.test' },
      })
    ).json();
    const foreign = (
      await harness.app.inject({
        method: 'POST',
        url: '/v1/accounts',
        headers: globex.headers,
        payload: { name: 'Other', primaryDomain: 'other.test' },
      })
    ).json();
    const linked = await create({ title: 'acct', requestorEmail: 'a@initech.test', teamId: desk.teamId, accountId: account.id });
    expect(linked.statusCode).toBe(201);
    expect(linked.json().data).toMatchObject({ accountId: account.id, account: 'Initech' });
    const before = await ticketCount();
    const rejected = await create({
      title: 'acct',
      requestorEmail: 'a@initech.test',
      teamId: desk.teamId,
      accountId: foreign.id,
    });
    expect(rejected.statusCode).toBe(400);
    expect(rejected.json().message).toBe('accountId must be an account of the organization');
    expect(await ticketCount()).toBe(before);
  });

  it('a ticket whose stored custom field was deleted can still be closed and the value cleared', async () => {
    const field = (
      await harness.app.inject({
        method: 'POST',
        url: '/v1/custom-field',
        headers: acme.headers,
        payload: { name: 'Legacy code', source: 'ticket', fieldType: 'single_line' },
      })
    ).json().data;
    const ticket = (
      await create({
        title: 'old',
        requestorEmail: 'o@customer.test',
        teamId: desk.teamId,
        customFieldValues: [{ fieldId: field.uid, value: 'X1' }],
      })
    ).json().data;
    await harness.app.inject({ method: 'DELETE', url: `/v1/custom-field/${field.uid}`, headers: acme.headers });
    const patch = (payload: object) =>
      harness.app.inject({ method: 'PATCH', url: `/v1/tickets/${ticket.id}`, headers: acme.headers, payload });
    const cleared = await patch({ customFieldValues: [{ fieldId: field.uid, value: null }] });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().data.customFieldValues).toEqual([]);
    const closed = await patch({ statusName: 'Closed' });
    expect(closed.statusCode).toBe(200);
    expect(closed.json().data.isClosed).toBe(true);
  });

  it('50 concurrent creations in one team get 50 distinct consecutive numbers', async () => {
    const team = await makeTeam(harness, acme, { identifier: 'RUSH' });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        create({ title: `rush ${i}`, requestorEmail: `rush${i % 5}@customer.test`, teamId: team.teamId }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(50).fill(201));
    const numbers = responses.map((response) => response.json().data.ticketId).sort((a: number, b: number) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const contacts = await harness.db
      .selectFrom('customer_contacts')
      .select('email')
      .where('organization_id', '=', acme.organizationId)
      .where('email', 'like', 'rush%')
      .execute();
    expect(contacts).toHaveLength(5);
  });
});
