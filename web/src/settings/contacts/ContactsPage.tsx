import { Link } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { api } from '../../api/client';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { headerCursorPage } from '../../ui/header-cursor-page';
import { LoadMore, PageHeader } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { CONTACTS_KEY, fullName } from './contact-queries';
import { NewContactDialog } from './NewContactDialog';

const PAGE_SIZE = 50;

/** The organization's customer contacts, oldest first, a page at a time. */
export function ContactsPage() {
  const [creating, setCreating] = useState(false);
  const contacts = useCursorPages([...CONTACTS_KEY, 'list'], (cursor) =>
    headerCursorPage(
      api.GET('/v1/accounts/contacts', { params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } } }),
    ),
  );
  return (
    <>
      <PageHeader
        title="Contacts"
        description="The customers who write to you, with their accounts and tickets."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            <Plus size={14} aria-hidden />
            New contact
          </Button>
        }
      />
      <NewContactDialog open={creating} onOpenChange={setCreating} />
      <ErrorNotice error={contacts.error} className="m-4" />
      {contacts.isPending ? <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">Loading…</p> : null}
      {!contacts.isPending && !contacts.error && contacts.items.length === 0 ? (
        <p className="m-4 rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          No contacts yet. They are added when customers email your mailboxes, or add one with "New contact".
        </p>
      ) : null}
      {contacts.items.length > 0 ? (
        <ul
          aria-label="Contacts"
          className="divide-y divide-zinc-200 border-b border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        >
          {contacts.items.map((contact) => (
            <li key={contact.id}>
              <Link
                to="/settings/contacts/$contactId"
                params={{ contactId: contact.id }}
                className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 px-4 py-2.5 text-sm hover:bg-zinc-50 dark:hover:bg-zinc-900"
              >
                <span className="min-w-0 basis-40 truncate font-medium">{fullName(contact)}</span>
                <span className="min-w-0 flex-1 truncate text-zinc-600 dark:text-zinc-400">{contact.email}</span>
                <span className="text-zinc-600 dark:text-zinc-400">
                  {contact.accounts.map((account) => account.name).join(', ')}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <LoadMore hasMore={contacts.hasMore} loading={contacts.loadingMore} onLoadMore={() => void contacts.loadMore()} />
    </>
  );
}
