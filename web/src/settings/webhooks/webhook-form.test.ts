import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../../../src/shared/event-types';
import { EVENT_TYPE_GROUPS, webhookBody, webhookFormValues } from './webhook-form';

describe('the webhook form', () => {
  it('offers every event type the API knows, once, grouped by what it is about', () => {
    expect(EVENT_TYPE_GROUPS.flatMap((group) => group.types)).toEqual([...EVENT_TYPES]);
    expect(EVENT_TYPE_GROUPS.map((group) => group.label)).toContain('Tickets');
  });

  it('sends an empty description as none', () => {
    const values = { ...webhookFormValues(), url: 'https://hooks.example/in', eventTypes: ['ticket.created'] };
    expect(webhookBody(values)).toEqual({
      url: 'https://hooks.example/in',
      description: null,
      eventTypes: ['ticket.created'],
      enabled: true,
    });
  });
});
