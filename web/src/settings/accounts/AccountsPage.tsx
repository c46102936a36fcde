import { Link } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { api } from '../../api/client';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { headerCursorPage } from '../../ui/header-cursor-page';
import { LoadMore, PageHeader } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { ACCOUNTS_KEY } from './account-queries';
import { NewAccountDialog } from './NewAccountDialog';

const PAGE_SIZE = 50;

/** The companies customers belong to, oldest first, a page at a time. */
export function AccountsPage() {
  const [creating, setCreating] = useState(false);
  const accounts = useCursorPages([...ACCOUNTS_KEY, 'list'], (cursor) =>
    headerCursorPage(api.GET('/v1/accounts', { params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } } })),
  );
  return (
    <>
      <PageHeader
        title="Accounts"
        description="The companies your customers belong to: their contacts, tickets and notes."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            <Plus size={14} aria-hidden />
            New account
          </Button>
        }
      />
      <NewAccountDialog open={creating} onOpenChange={setCreating} />
      <ErrorNotice error={accounts.error} className="m-4" />
      {accounts.isPending ? <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">Loading…</p> : null}
      {!accounts.isPending && !accounts.error && accounts.items.length === 0 ? (
        <p className="m-4 rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          No accounts yet. Add one with "New account": contacts whose email is at its domain join it.
        </p>
      ) : null}
      {accounts.items.length > 0 ? (
        <ul
          aria-label="Accounts"
          className="divide-y divide-zinc-200 border-b border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        >
          {accounts.items.map((account) => (
            <li key={account.id}>
              <Link
                to="/settings/accounts/$accountId"
                params={{ accountId: account.id }}
                className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 px-4 py-2.5 text-sm hover:bg-zinc-50 dark:hover:bg-zinc-900"
              >
                <span className="min-w-0 basis-40 truncate font-medium">{account.name}</span>
                <span className="min-w-0 flex-1 truncate text-zinc-600 dark:text-zinc-400">{account.primaryDomain}</span>
                {account.status ? <span className="text-zinc-600 dark:text-zinc-400">{account.status}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <LoadMore hasMore={accounts.hasMore} loading={accounts.loadingMore} onLoadMore={() => void accounts.loadMore()} />
    </>
  );
}
