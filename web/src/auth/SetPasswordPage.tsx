import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { MIN_PASSWORD_LENGTH } from '../../../src/shared/password-rules';
import { api, unwrap } from '../api/client';
import { Button } from '../ui/Button';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextField } from '../ui/TextField';
import { AuthLayout } from './AuthLayout';
import { sessionQuery } from './session';

/**
 * Where an emailed link lands: accepting an invitation or resetting a password both set a
 * password with the link's single-use token, and sign in.
 */
export function SetPasswordPage({ purpose }: { purpose: 'invitation' | 'reset' }) {
  const { token } = useSearch({ strict: false }) as { token?: string };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const setNewPassword = useMutation({
    mutationFn: async () => {
      const body = { token: token ?? '', password };
      const call =
        purpose === 'invitation'
          ? api.POST('/v1/auth/invitations/accept', { body })
          : api.POST('/v1/auth/password-reset/confirm', { body });
      return (await unwrap(call)).data;
    },
    onSuccess: async (signedIn) => {
      queryClient.setQueryData(sessionQuery.queryKey, signedIn);
      await navigate({ to: '/' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== confirmation);
    if (password === confirmation) {
      setNewPassword.mutate();
    }
  };
  const title = purpose === 'invitation' ? 'Welcome to Switchboard' : 'Choose a new password';
  if (!token) {
    return (
      <AuthLayout title={title}>
        <ErrorNotice error={new Error('This link has no token. Open the link from your email again.')} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={title}>
      <form onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters, and not a common password.`}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <TextField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          required
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
        />
        {mismatch ? <ErrorNotice error={new Error('The two passwords differ.')} /> : null}
        <ErrorNotice error={setNewPassword.error} />
        <Button type="submit" variant="primary" disabled={setNewPassword.isPending}>
          {purpose === 'invitation' ? 'Set password and sign in' : 'Change password and sign in'}
        </Button>
        <Link to="/sign-in" className="text-center text-sm text-blue-700 hover:underline dark:text-blue-400">
          Back to sign in
        </Link>
      </form>
    </AuthLayout>
  );
}
