import { describe, expect, it } from 'vitest';
import { escapeMarkdownText, fillPlaceholders } from '../../../src/shared/macro-placeholders';
import { placeholderValues } from './macro-placeholders';

const ticket = {
  id: '01JTICKET0000000000000000',
  ticketIdentifier: 'BILL-7',
  title: '[click](https://evil.example)',
  status: 'Open',
  priority: 'High',
  teamName: 'Billing',
  assignedAgent: null,
  customerContactFirstName: 'Pat',
  customerContactLastName: null,
  requestorEmail: 'pat@customer.test',
};

describe('macro placeholders filled in the composer', () => {
  it('fills known placeholders, spaces inside the braces allowed, and leaves the rest of the template as written', () => {
    const values = placeholderValues(ticket, { name: 'Ada Agent', email: 'ada@acme.test' });
    expect(
      fillPlaceholders('Hi {{requestor.firstName}}, **{{ ticket.identifier }}** is {{ticket.status}}. — {{agent.name}}', values),
    ).toBe('Hi Pat, **BILL\\-7** is Open. — Ada Agent');
  });

  it('renders a missing value as nothing and the requestor name as their email when unknown', () => {
    const values = placeholderValues({ ...ticket, customerContactFirstName: null }, { name: 'Ada', email: 'ada@acme.test' });
    expect(fillPlaceholders('[{{ticket.assignee}}]', values)).toBe('[]');
    expect(fillPlaceholders('{{requestor.name}}', values)).toBe('pat\\@customer\\.test');
  });

  it('escapes values as markdown text so a title cannot add a link, a heading or HTML', () => {
    const values = placeholderValues(ticket, { name: 'Ada', email: 'ada@acme.test' });
    expect(fillPlaceholders('About: {{ticket.title}}', values)).toBe('About: \\[click\\]\\(https\\:\\/\\/evil\\.example\\)');
    expect(escapeMarkdownText('# Urgent\n<img src=x>')).toBe('\\# Urgent \\<img src\\=x\\>');
  });

  it('keeps an unknown placeholder as written', () => {
    expect(fillPlaceholders('{{ nope }}', {})).toBe('{{ nope }}');
  });
});
