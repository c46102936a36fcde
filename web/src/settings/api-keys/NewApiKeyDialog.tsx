import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../ui/Button';
import { CopyButton } from '../../ui/CopyButton';
import { Dialog } from '../../ui/Dialog';
import { InputField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { apiKeyKeys, type IssuedApiKey, issueApiKey } from './api-keys-api';

const newKeySchema = z.object({ name: z.string().trim().min(1, 'Name the key after what will use it').max(100) });
type NewKey = z.infer<typeof newKeySchema>;

/** Names and issues a key, then shows it once, with a copy button: it is never shown again. */
export function NewApiKeyDialog({
  open,
  onOpenChange,
  userId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
}) {
  const queryClient = useQueryClient();
  const form = useForm<NewKey>({ resolver: zodResolver(newKeySchema), defaultValues: { name: '' } });
  const issue = useMutation({
    mutationFn: (values: NewKey) => issueApiKey(userId, values.name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.ofUser(userId) }),
    onError: (error) => showApiError(form, error),
  });
  const close = (next: boolean) => {
    if (!next) {
      form.reset();
      issue.reset();
    }
    onOpenChange(next);
  };
  const { errors } = form.formState;
  if (issue.data) {
    return <IssuedKeyDialog issued={issue.data} onClose={() => close(false)} />;
  }
  return (
    <Dialog open={open} onOpenChange={close} title="New API key" description="The key acts as its user, with their permissions.">
      <form className="flex flex-col gap-3 p-4" noValidate onSubmit={form.handleSubmit((values) => issue.mutate(values))}>
        <InputField
          label="Name"
          placeholder="Zapier"
          autoComplete="off"
          error={errors.name?.message}
          {...form.register('name')}
        />
        <FormProblems errors={errors} />
        <div className="flex justify-end gap-2">
          <Button onClick={() => close(false)}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={issue.isPending}>
            Create key
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function IssuedKeyDialog({ issued, onClose }: { issued: IssuedApiKey; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(next) => (next ? null : onClose())} title={`API key “${issued.name ?? issued.prefix}”`}>
      <div className="flex flex-col gap-3 p-4">
        <p className="flex gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
          <TriangleAlert size={16} aria-hidden className="mt-0.5 shrink-0" />
          Copy this key now and keep it somewhere safe: it will not be shown again.
        </p>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Your new API key
          <input
            readOnly
            value={issued.apiKey}
            onFocus={(event) => event.currentTarget.select()}
            className="rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
          />
        </label>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CopyButton text={issued.apiKey} label="Copy key" />
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
