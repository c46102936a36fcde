import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { RelatedTickets } from '../../ui/RelatedTickets';
import { AccountContacts } from './AccountContacts';
import { AccountCustomFields } from './AccountCustomFields';
import { AccountDetails } from './AccountDetails';
import { AccountNotes } from './AccountNotes';
import { accountQuery } from './account-queries';
import { DeleteAccount } from './DeleteAccount';

/** An account: its attributes and custom fields, its contacts and tickets, and the team's notes on it; deleted after a confirmation. */
export function AccountPage() {
  const { accountId } = useParams({ strict: false }) as { accountId: string };
  const account = useQuery(accountQuery(accountId));
  return (
    <>
      <PageHeader
        title={account.data?.name ?? 'Account'}
        description={account.data?.primaryDomain}
        actions={
          <>
            <Link
              to="/settings/accounts"
              className="inline-flex items-center gap-1 self-center text-sm text-blue-700 hover:underline dark:text-blue-400"
            >
              <ArrowLeft size={14} aria-hidden />
              All accounts
            </Link>
            {account.data ? <DeleteAccount account={account.data} /> : null}
          </>
        }
      />
      <ErrorNotice error={account.error} className="m-4" />
      {account.isPending ? <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">Loading…</p> : null}
      {account.data ? (
        <div className="grid gap-8 p-4 xl:grid-cols-2">
          <div className="flex min-w-0 flex-col gap-8">
            <AccountDetails key={`details-${account.data.id}`} account={account.data} />
            <AccountCustomFields key={`fields-${account.data.id}`} account={account.data} />
            <AccountContacts accountId={account.data.id} />
            <RelatedTickets
              filter={{ accountId: account.data.id }}
              emptyText="No tickets from this account yet. Tickets its contacts send show here."
            />
          </div>
          <div className="min-w-0">
            <AccountNotes account={account.data} />
          </div>
        </div>
      ) : null}
    </>
  );
}
