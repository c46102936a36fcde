import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api/client';
import { Button } from '../ui/Button';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextField } from '../ui/TextField';
import { AuthLayout } from './AuthLayout';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const request = useMutation({
    mutationFn: async () => (await unwrap(api.POST('/v1/auth/password-reset', { body: { email } }))).data,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate();
  };
  return (
    <AuthLayout title="Reset your password">
      {request.isSuccess ? (
        <p role="status" className="text-sm">
          If {email} has an account, a link to choose a new password is on its way. It works once, for a limited time.
        </p>
      ) : (
        <form onSubmit={submit} className="flex flex-col gap-4">
          <TextField
            label="Email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <ErrorNotice error={request.error} />
          <Button type="submit" variant="primary" disabled={request.isPending}>
            Email me a link
          </Button>
        </form>
      )}
      <Link to="/sign-in" className="mt-4 block text-center text-sm text-blue-700 hover:underline dark:text-blue-400">
        Back to sign in
      </Link>
    </AuthLayout>
  );
}
