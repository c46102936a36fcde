import { Link } from '@tanstack/react-router';
import { Inbox, Plus } from 'lucide-react';
import { Badge } from '../../ui/Badge';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore, PageHeader } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { MailboxStatus } from './MailboxStatus';
import { fetchMailboxPage, MAILBOXES_KEY, type Mailbox } from './mailbox-queries';

const NEW_MAILBOX_CLASS =
  'inline-flex items-center gap-1.5 rounded-md bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700';

/** The organization's support addresses, by address, a page at a time. */
export function MailboxesPage() {
  const list = useCursorPages([...MAILBOXES_KEY, 'list'], fetchMailboxPage);
  return (
    <div>
      <PageHeader
        title="Mailboxes"
        description="Support addresses whose email becomes tickets, and that replies are sent from."
        actions={
          <Link to="/settings/mailboxes/new" className={NEW_MAILBOX_CLASS}>
            <Plus size={16} aria-hidden />
            New mailbox
          </Link>
        }
      />
      <div className="p-4">
        <ErrorNotice error={list.error} />
        {list.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading mailboxes…</p> : null}
        {!list.isPending && !list.error && list.items.length === 0 ? <NoMailboxes /> : null}
        {list.items.length > 0 ? (
          <ul
            aria-label="Mailboxes"
            className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {list.items.map((mailbox) => (
              <MailboxRow key={mailbox.id} mailbox={mailbox} />
            ))}
          </ul>
        ) : null}
        <LoadMore hasMore={list.hasMore} loading={list.loadingMore} onLoadMore={() => void list.loadMore()} />
      </div>
    </div>
  );
}

function MailboxRow({ mailbox }: { mailbox: Mailbox }) {
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
      <Link
        to="/settings/mailboxes/$mailboxId"
        params={{ mailboxId: mailbox.id }}
        className="min-w-0 truncate font-medium text-blue-700 hover:underline dark:text-blue-400"
      >
        {mailbox.address}
      </Link>
      <span className="min-w-0 truncate text-zinc-600 dark:text-zinc-400">{mailbox.displayName}</span>
      <span className="ml-auto flex flex-wrap items-center gap-2">
        {mailbox.isDefault ? <Badge tone="blue">Default</Badge> : null}
        <Badge>{mailbox.delivery === 'imap' ? 'IMAP' : 'SMTP'}</Badge>
        <MailboxStatus mailbox={mailbox} />
      </span>
    </li>
  );
}

function NoMailboxes() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-2 py-10 text-center">
      <Inbox size={28} aria-hidden className="text-zinc-400" />
      <h2 className="text-base font-semibold">No mailboxes yet</h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Add your support address with “New mailbox”. Its email then becomes tickets of the team you choose, once the address is
        verified by an emailed link or a DNS record.
      </p>
    </div>
  );
}
