import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ACCOUNTS_KEY, type Account, accountQuery } from './account-queries';

/**
 * "Delete account", asked first, then back to the list. The API deletes softly: the account and
 * its notes leave every read, its contacts and tickets stay (a ticket keeps the account's name),
 * and its primary domain is free for another account.
 */
export function DeleteAccount({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      await unwrap(api.DELETE('/v1/accounts/{id}', { params: { path: { id: account.id } } }));
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: [...ACCOUNTS_KEY, 'list'], refetchType: 'none' });
      // Unsaved edits of a deleted account have nothing left to save: leave without asking.
      await navigate({ to: '/settings/accounts', ignoreBlocker: true });
      queryClient.removeQueries({ queryKey: accountQuery(account.id).queryKey });
    } catch (failure) {
      setOpen(false);
      setError(failure);
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        <Trash2 size={14} aria-hidden />
        Delete account
      </Button>
      <ErrorNotice error={error} className="basis-full" />
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete ${account.name}?`}
        description={`The account leaves the list and its notes are no longer shown. Its contacts and their tickets stay, and ${account.primaryDomain} is free for another account.`}
        confirmLabel="Delete account"
        pending={pending}
        onConfirm={() => void confirm()}
      />
    </>
  );
}
