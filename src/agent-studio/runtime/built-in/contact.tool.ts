import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/database.js';
import type { Principal } from '../../../lib/principal.js';
import { CONTACT_NOT_FOUND, getContact, getContactByEmail } from '../../../platform/contacts/customer-contact.service.js';
import { listVisibleTickets } from '../../../platform/tickets/ticket.service.js';
import type { CustomerReach } from '../run-principal.js';
import type { RuntimeTool } from '../runtime-tool.js';
import { type BuiltInCall, makeBuiltInTool } from './built-in-tool.js';
import { customerTicketListItem, ticketListItem } from './ticket-summary.js';

interface LookupContactConfiguration {
  include_tickets: boolean;
  max_tickets: number;
}

const LookupContactArguments = Type.Object(
  {
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: "The customer's email" })),
    contact_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "The contact's id" })),
  },
  { additionalProperties: false },
);

/** The contact a customer's run may look up: the requester's own, named by its id or its email. */
async function customersOwnContact(
  db: Kysely<DB>,
  principal: Principal,
  customer: CustomerReach,
  args: { email?: string; contact_id?: string },
) {
  const own = customer.contactId ? await getContact(db, principal, customer.contactId) : null;
  const named =
    own !== null &&
    (args.contact_id !== undefined
      ? args.contact_id.toUpperCase() === own.id.toUpperCase()
      : (args.email ?? '').trim().toLowerCase() === (own.email ?? '').toLowerCase());
  if (!own || !named) {
    // Exactly what a missing contact answers: a customer's run learns nothing of other contacts.
    throw new Error(CONTACT_NOT_FOUND);
  }
  return own;
}

async function lookupContact(
  args: { email?: string; contact_id?: string },
  { context, principal, customer, configuration }: BuiltInCall<LookupContactConfiguration>,
) {
  if ((args.email === undefined) === (args.contact_id === undefined)) {
    throw new Error('Invalid arguments: give either email or contact_id');
  }
  const { db } = context.deps;
  const contact = customer
    ? await customersOwnContact(db, principal, customer, args)
    : args.contact_id !== undefined
      ? await getContact(db, principal, args.contact_id)
      : await getContactByEmail(db, principal, args.email ?? '');
  const tickets =
    configuration.include_tickets && configuration.max_tickets > 0
      ? await listVisibleTickets(db, principal, {
          customerContactId: contact.id,
          sort: '-updatedAt',
          limit: configuration.max_tickets,
        })
      : null;
  const listItem = customer ? customerTicketListItem : ticketListItem;
  return {
    contact: {
      id: contact.id,
      name: [contact.firstName, contact.lastName].filter(Boolean).join(' '),
      email: contact.email,
      phone_number: contact.phoneNumber,
      contact_type: contact.contactType,
      accounts: contact.accounts.map((account) => ({ id: account.id, name: account.name, domain: account.primaryDomain })),
      created_at: contact.createdAt,
    },
    ...(tickets ? { latest_tickets: tickets.items.map(listItem), more_tickets: tickets.nextCursor !== null } : {}),
  };
}

export function lookupContactTool(toolName: string, configuration: Record<string, unknown>): RuntimeTool {
  return makeBuiltInTool(
    toolName,
    {
      description:
        'Finds a customer contact by email or id: name, phone, the accounts (companies) they belong to, and their latest tickets.',
      arguments: LookupContactArguments,
      run: lookupContact,
    },
    configuration,
  );
}
