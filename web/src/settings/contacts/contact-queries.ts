import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { DataOf } from '../../api/types';

export type Contact = DataOf<'/v1/accounts/contacts/{contactId}', 'get'>;

export const CONTACTS_KEY = ['contacts'] as const;

export const contactQuery = (contactId: string) =>
  queryOptions({
    queryKey: [...CONTACTS_KEY, 'one', contactId],
    queryFn: () => unwrap(api.GET('/v1/accounts/contacts/{contactId}', { params: { path: { contactId } } })),
  });

export const fullName = (contact: Pick<Contact, 'firstName' | 'lastName'>) =>
  [contact.firstName, contact.lastName].filter(Boolean).join(' ');
