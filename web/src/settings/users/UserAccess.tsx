import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { sendInvitation, type User, updateUser, userKeys } from './users-api';

/** Whether the user may sign in: disable or enable them (asked first), and send the invitation again. */
export function UserAccess({ user, isSelf }: { user: User; isSelf: boolean }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const toggle = useMutation({
    mutationFn: () => updateUser(user.id, { disabled: !user.disabled }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(userKeys.one(user.id), saved);
      setConfirming(false);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.list }),
        queryClient.invalidateQueries({ queryKey: userKeys.sessions(user.id) }),
      ]);
    },
    onError: () => setConfirming(false),
  });
  const resend = useMutation({ mutationFn: () => sendInvitation(user.id) });
  return (
    <section aria-labelledby="access-heading" className="flex flex-col gap-2">
      <h2 id="access-heading" className="text-base font-semibold">
        Access
      </h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {user.disabled
          ? 'Disabled: this user cannot sign in and their API keys do not work.'
          : 'Has not set a password yet, or lost the email? Send the invitation again.'}
      </p>
      <div className="flex flex-wrap gap-2">
        {user.disabled ? null : (
          <Button disabled={resend.isPending} onClick={() => resend.mutate()}>
            Resend invitation
          </Button>
        )}
        {isSelf ? null : (
          <Button variant={user.disabled ? 'primary' : 'danger'} onClick={() => setConfirming(true)}>
            {user.disabled ? 'Enable user' : 'Disable user'}
          </Button>
        )}
      </div>
      {resend.isSuccess ? (
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
          Invitation sent to {user.email}.
        </p>
      ) : null}
      <ErrorNotice error={resend.error ?? toggle.error} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={user.disabled ? `Enable ${user.name}?` : `Disable ${user.name}?`}
        description={
          user.disabled
            ? 'They can sign in and use their API keys again. Sessions ended when they were disabled stay ended.'
            : 'They are signed out everywhere at once, cannot sign in, their API keys stop working and routing passes them over. You can enable them again later.'
        }
        confirmLabel={user.disabled ? 'Enable' : 'Disable'}
        pending={toggle.isPending}
        onConfirm={() => toggle.mutate()}
      />
    </section>
  );
}
