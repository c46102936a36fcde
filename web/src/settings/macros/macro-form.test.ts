import { describe, expect, it } from 'vitest';
import type { Macro } from '../../api/types';
import { EMPTY_MACRO, macroBody, macroFormValues } from './macro-form';
import { previewReply } from './macro-preview';

const saved: Macro = {
  id: '01JB2Z3M4N5P6Q7R8S9T0V1W2A',
  name: 'Refund done',
  description: 'Once the refund is issued',
  content: 'Hi {{requestor.firstName}}',
  commentVisibility: 'public',
  shouldSendEmail: true,
  actions: { statusId: '01JB2Z3M4N5P6Q7R8S9T0V1W2B', priorityName: 'High', assignedAgentId: null, addTagIds: ['t1'] },
  teamId: null,
  ownerId: '01JB2Z3M4N5P6Q7R8S9T0V1W2C',
  createdAt: '2026-11-29T00:00:00.000Z',
  updatedAt: '2026-11-29T00:00:00.000Z',
};

describe('the macro form', () => {
  it('sends back the actions a saved macro takes, by id or by name, unassigning as null', () => {
    const body = macroBody(macroFormValues(saved));
    expect(body.actions).toEqual(saved.actions);
    expect(body.teamId).toBeNull();
    expect(body.description).toBe(saved.description);
    expect(body.shouldSendEmail).toBe(true);
  });

  it('sends no action for a reply alone, and no email for an internal note', () => {
    const body = macroBody({ ...EMPTY_MACRO, name: 'Note', content: 'x', commentVisibility: 'private', shouldSendEmail: true });
    expect(body.actions).toEqual({});
    expect(body.shouldSendEmail).toBe(false);
  });

  it('previews the reply with the sample ticket, values escaped as the API escapes them', () => {
    const reply = previewReply(
      'Hi {{ requestor.firstName }}, {{ticket.identifier}} ({{ticket.team}}) by {{agent.name}}',
      'Billing',
      {
        name: 'Ada',
        email: 'ada@acme.test',
      },
    );
    expect(reply).toBe('Hi Pat, BILL\\-12 (Billing) by Ada');
  });
});
