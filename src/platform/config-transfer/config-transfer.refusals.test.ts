import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_TEST_ENV, configureOrganization } from '../../../test/config-organization.js';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/harness.js';

interface Document {
  version: number;
  teams: Record<string, unknown>[];
  teamTags: Record<string, unknown>[];
  teamConfigurations: Record<string, unknown>[];
  routingRules: Record<string, unknown>[];
  customFields: Record<string, unknown>[];
  macros: Record<string, unknown>[];
  views: Record<string, unknown>[];
  mailboxes: Record<string, unknown>[];
  webhooks: Record<string, unknown>[];
}

describe.each(DIALECTS)('configuration import refusals on %s', (dialect) => {
  let harness: TestApp;
  let acme: TestOrganization;
  let exported: Document;

  beforeAll(async () => {
    harness = await buildTestApp(dialect, { env: CONFIG_TEST_ENV });
    acme = await makeOrganization(harness, { name: 'Acme' });
    const agent = await makeUser(harness, acme.organizationId, { name: 'Agent', email: 'agent@config.test' });
    await configureOrganization(harness.app, acme.headers, agent.userId);
    exported = (await harness.app.inject({ url: '/v1/config/export', headers: acme.headers })).json().data;
  }, 60_000);
  afterAll(() => harness?.close());

  /** A copy of the export, changed by `change`. */
  const edited = (change: (document: Document) => void): Document => {
    const document = structuredClone(exported);
    change(document);
    return document;
  };

  /** Imports `document` (as a dry run and for real): both refused with `status`, and nothing written. Answers the problems. */
  async function refused(document: unknown, status = 400, query = ''): Promise<string[]> {
    const messages: string[] = [];
    for (const dryRun of ['dryRun=true', 'dryRun=false']) {
      const response = await harness.app.inject({
        method: 'POST',
        url: `/v1/config/import?${dryRun}${query}`,
        headers: acme.headers,
        payload: document as object,
      });
      expect(response.statusCode, response.body).toBe(status);
      const body = response.json();
      expect(body).toEqual({
        statusCode: status,
        message: expect.any(String),
        error: status === 400 ? 'Bad Request' : 'Conflict',
      });
      messages.push(body.message);
    }
    expect(messages[0]).toBe(messages[1]);
    const after = await harness.app.inject({ url: '/v1/config/export', headers: acme.headers });
    expect(after.json().data).toEqual(exported);
    return (messages[0] ?? '').split('; ');
  }

  it('refuses a document of another version', async () => {
    expect(await refused({ ...exported, version: 2 })).toEqual([
      'version must be 1: this instance reads version 1 documents (got 2)',
    ]);
  });

  it('refuses unknown keys anywhere, each named by its path', async () => {
    const document = edited((doc) => {
      Object.assign(doc, { colour: 'blue' });
      Object.assign(doc.teams[0] ?? {}, { owner: 'someone@config.test' });
      Object.assign(doc.views[0] ?? {}, { filters: { teams: ['Support'], bogus: true } });
    });
    expect(await refused(document)).toEqual([
      'colour is not an accepted field',
      'teams.0.owner is not an accepted field',
      'views.0.filters.bogus is not an accepted field',
    ]);
  });

  it('refuses secrets, named as secrets, wherever they are', async () => {
    const document = edited((doc) => {
      Object.assign((doc.mailboxes[0] as { imap: object }).imap, { password: 'hunter2' });
      Object.assign(doc.webhooks[0] ?? {}, { secret: 'whsec_abc' });
      Object.assign(doc, { apiKey: 'sbk_123' });
    });
    expect(await refused(document)).toEqual([
      'mailboxes.0.imap.password is a secret: secrets are never part of a configuration document (set them through the API)',
      'webhooks.0.secret is a secret: secrets are never part of a configuration document (set them through the API)',
      'apiKey is a secret: secrets are never part of a configuration document (set them through the API)',
    ]);
  });

  it('refuses broken references: teams, parents, tags, custom fields and users that exist nowhere', async () => {
    const document = edited((doc) => {
      doc.teams.push({ name: 'Orphan', parent: 'Ghost team' });
      Object.assign(doc.routingRules[0] ?? {}, { resultTeam: 'Nowhere' });
      doc.routingRules.push({
        team: 'Support',
        name: 'New',
        resultTeam: 'Support',
        andRules: ['{"field":"customField.nope","operator":"is_empty"}'],
      });
      Object.assign(doc.macros[0] ?? {}, { actions: { addTags: ['Ghost tag'], assignedAgent: 'nobody@config.test' } });
      Object.assign(doc.views[0] ?? {}, { filters: { customFields: { nope: 'x' }, tags: [{ team: 'Billing', name: 'VIP' }] } });
      doc.mailboxes.push({ address: 'other@config.test', team: 'Gone', displayName: 'Other', delivery: 'smtp' });
    });
    expect(await refused(document)).toEqual([
      'teams.3.parent names no team: "Ghost team" is neither in the document nor an active team of the organization',
      'routingRules.0.resultTeam names no team: "Nowhere" is neither in the document nor an active team of the organization',
      'routingRules.2.andRules.0 names no ticket custom field: "nope" is no slug of one',
      'macros.0.actions.addTags.0 names no tag of Support: "Ghost tag"',
      'macros.0.actions.assignedAgent names no user: "nobody@config.test" is not a user of the organization',
      'views.0.filters.tags.0 names no tag: Billing / VIP',
      'views.0.filters.customFields.nope names no ticket custom field: "nope" is no slug of one',
      'mailboxes.1.team names no team: "Gone" is neither in the document nor an active team of the organization',
    ]);
  });

  it('refuses what a rule of the API refuses: lengths, colours, hours, conditions, event types, orders', async () => {
    const document = edited((doc) => {
      Object.assign(doc.teamTags[0] ?? {}, { name: 'x'.repeat(51) });
      Object.assign(doc.teamTags[1] ?? {}, { color: 'red' });
      Object.assign(doc.teamConfigurations[1] ?? {}, {
        commonSlots: [
          { start: '09:00', end: '12:00' },
          { start: '11:00', end: '13:00' },
        ],
      });
      Object.assign(doc.routingRules[1] ?? {}, {
        evaluationOrder: 1,
        orRules: ['{"field":"title","operator":"BETWEEN","value":"a"}'],
      });
      Object.assign(doc.webhooks[0] ?? {}, { eventTypes: ['ticket.exploded'] });
    });
    const problems = await refused(document);
    expect(problems).toEqual(['teamTags.1.color has an invalid format', 'teamTags.0.name must be at most 50 characters long']);
    // Once the shapes are right, the features' own rules are judged, all of them at once.
    const shaped = edited((doc) => {
      Object.assign(doc.teamConfigurations[1] ?? {}, (document.teamConfigurations[1] ?? {}) as object);
      Object.assign(doc.routingRules[1] ?? {}, document.routingRules[1] as object);
      Object.assign(doc.webhooks[0] ?? {}, document.webhooks[0] as object);
    });
    expect(await refused(shaped)).toEqual([
      expect.stringMatching(/^teamConfigurations\.1\.commonSlots\.1 .*overlap/),
      'routingRules.1.orRules.0 has an unknown operator "BETWEEN"',
      expect.stringMatching(/^webhooks\.0\.eventTypes\.0 "ticket\.exploded" is not an event type/),
      'routingRules.1.evaluationOrder 1 is taken by routingRules.0: each rule of a team has its own',
    ]);
  });

  it('judges webhook URLs and custom field definitions as their APIs do', async () => {
    const urls = edited((doc) => {
      doc.webhooks.push({ url: 'http://hooks.config.test/in', eventTypes: ['ticket.created'] });
      doc.webhooks.push({ url: 'https://10.0.0.7/in', eventTypes: ['ticket.created'] });
    });
    expect(await refused(urls)).toEqual([
      'webhooks.1.url must use https (plain http only for hosts in OUTBOUND_ALLOWED_HOSTS)',
      'webhooks.2.url points to a private or reserved address',
    ]);
    const regex = edited((doc) => {
      doc.customFields.push({ source: 'ticket', slug: 'code', name: 'Code', fieldType: 'single_line', regexForValidation: '([' });
    });
    expect(await refused(regex)).toEqual([
      'customFields.2 (ticket / code): regexForValidation must be a valid regular expression',
    ]);
  });

  it('refuses IMAP settings that do not go with the delivery, as the mailbox API does', async () => {
    const document = edited((doc) => {
      Object.assign(doc.mailboxes[0] ?? {}, { imap: null });
      doc.mailboxes.push({
        address: 'smtp@config.test',
        team: 'Support',
        displayName: 'SMTP',
        delivery: 'smtp',
        imap: { host: 'imap.example.com', username: 'x' },
      });
    });
    expect(await refused(document)).toEqual([
      'mailboxes.0.imap is required for delivery imap',
      'mailboxes.1.imap settings are only for delivery imap',
    ]);
  });

  it('refuses an entry twice, and a change the API cannot make', async () => {
    const document = edited((doc) => {
      doc.teams.push({ name: 'Support' });
      Object.assign(doc.customFields[1] ?? {}, { fieldType: 'multi_choice' });
      Object.assign(doc.teams[2] ?? {}, { parent: null });
    });
    expect(await refused(document)).toEqual([
      'teams.2.parent cannot change once Tier 2 exists (it is "Support")',
      'teams.3 repeats teams.1 (Support): each is matched by it, so it may appear once',
      'customFields.1.fieldType cannot change once ticket / plan exists (it is "single_choice")',
    ]);
  });

  it('refuses to keep a sub-team whose parent prune would archive', async () => {
    const document = edited((doc) => {
      doc.teams = doc.teams.filter((team) => team.name !== 'Support').map(({ parent: _parent, ...team }) => team);
    });
    expect(await refused(document, 400, '&prune=true')).toContain(
      'teams.1 is a sub-team of "Support", which the document leaves out: prune would archive it (name its parent)',
    );
  });

  it('rolls everything back when a service refuses an entry as it applies', async () => {
    // Support's colour would change first; the custom field's options then break its definition.
    const document = edited((doc) => {
      Object.assign(doc.teams[1] ?? {}, { color: '#000000' });
      Object.assign(doc.customFields[1] ?? {}, { options: [] });
    });
    expect(await refused(document)).toEqual([
      'customFields.1 (ticket / plan): fields.0.updates.options must have at least one option for a single_choice field',
    ]);
  });

  it('answers 409 when an identifier another team holds is asked for, writing nothing', async () => {
    const document = edited((doc) => {
      doc.teams.push({ name: 'Second support', identifier: 'sup' });
    });
    expect(await refused(document, 409)).toEqual([
      expect.stringMatching(/^teams\.3 \(Second support\): Team with this identifier/),
    ]);
  });

  it('refuses a bad query string and a body that is no document', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/v1/config/import?dryRun=perhaps',
      headers: acme.headers,
      payload: exported,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('dryRun must be a boolean');
    expect(await refused([1, 2])).toEqual(['version must be 1: this instance reads version 1 documents (got null)']);
  });
});
