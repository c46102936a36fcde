import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { api, unwrap } from '../../api/client';
import { DeleteAction } from '../../ui/DeleteAction';
import { ACCOUNTS_KEY, type Account, accountQuery } from './account-queries';

/**
 * "Delete account", asked first, then back to the list. The API deletes softly: the account and
 * its notes leave every read, its contacts and tickets stay (a ticket keeps the account's name),
 * and its primary domain is free for another account.
 */
export function DeleteAccount({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <DeleteAction
      label="Delete account"
      title={`Delete ${account.name}?`}
      description={`The account leaves the list and its notes are no longer shown. Its contacts and their tickets stay, and ${account.primaryDomain} is free for another account.`}
      remove={() => unwrap(api.DELETE('/v1/accounts/{id}', { params: { path: { id: account.id } } }))}
      onDeleted={async () => {
        await queryClient.invalidateQueries({ queryKey: [...ACCOUNTS_KEY, 'list'], refetchType: 'none' });
        // Unsaved edits of a deleted account have nothing left to save: leave without asking.
        await navigate({ to: '/settings/accounts', ignoreBlocker: true });
        queryClient.removeQueries({ queryKey: accountQuery(account.id).queryKey });
      }}
    />
  );
}
