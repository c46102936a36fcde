import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ApiError, api, unwrap } from '../api/client';
import { Button } from '../ui/Button';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextField } from '../ui/TextField';
import { AuthLayout } from './AuthLayout';
import { safeRedirect } from './redirect';
import { sessionQuery } from './session';

export function SignInPage() {
  const search = useSearch({ strict: false }) as { redirect?: string; reason?: string };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: async () => {
      try {
        return (await unwrap(api.POST('/v1/auth/login', { body: { email, password } }))).data;
      } catch (error) {
        // The API answers every failed sign-in with the same 401, so as not to tell which part was wrong.
        if (error instanceof ApiError && error.status === 401) {
          throw new ApiError(401, 'The email or password is not right.');
        }
        throw error;
      }
    },
    onSuccess: async (signedIn) => {
      queryClient.setQueryData(sessionQuery.queryKey, signedIn);
      await navigate({ href: safeRedirect(search.redirect) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  return (
    <AuthLayout title="Sign in">
      {search.reason === 'expired' ? (
        <p
          role="status"
          className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
        >
          Your session ended. Sign in again: your unsent replies are kept.
        </p>
      ) : null}
      <form onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label="Email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <ErrorNotice error={signIn.error} />
        <Button type="submit" variant="primary" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
        <Link to="/forgot-password" className="text-center text-sm text-blue-700 hover:underline dark:text-blue-400">
          Forgot your password?
        </Link>
      </form>
    </AuthLayout>
  );
}
