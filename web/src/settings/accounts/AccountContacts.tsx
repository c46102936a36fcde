import { Link } from '@tanstack/react-router';
import { api } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { headerCursorPage } from '../../ui/header-cursor-page';
import { LoadMore } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { ACCOUNTS_KEY } from './account-queries';

const PAGE_SIZE = 25;

/** The account's contacts, a page at a time, each a link to the contact's page. */
export function AccountContacts({ accountId }: { accountId: string }) {
  const contacts = useCursorPages([...ACCOUNTS_KEY, 'one', accountId, 'contacts'], (cursor) =>
    headerCursorPage(
      api.GET('/v1/accounts/contacts', { params: { query: { accountId, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } } }),
    ),
  );
  return (
    <section aria-label="Contacts" className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold">Contacts</h2>
      <ErrorNotice error={contacts.error} />
      {!contacts.isPending && !contacts.error && contacts.items.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          No contacts yet. People who email from the account's domain join it; add others under Contacts.
        </p>
      ) : null}
      {contacts.items.length > 0 ? (
        <ul className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {contacts.items.map((contact) => (
            <li key={contact.id}>
              <Link
                to="/settings/contacts/$contactId"
                params={{ contactId: contact.id }}
                className="flex flex-wrap items-baseline gap-x-2 px-3 py-2 text-sm hover:bg-zinc-50 dark:hover:bg-zinc-900"
              >
                <span className="font-medium">{[contact.firstName, contact.lastName].filter(Boolean).join(' ')}</span>
                <span className="min-w-0 truncate text-zinc-600 dark:text-zinc-400">{contact.email}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <LoadMore hasMore={contacts.hasMore} loading={contacts.loadingMore} onLoadMore={() => void contacts.loadMore()} />
    </section>
  );
}
