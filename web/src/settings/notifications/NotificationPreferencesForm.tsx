import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../ui/Button';
import { CheckboxField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { type NotificationPreferences, notificationKeys, savePreferences } from './notifications-api';

const switchesSchema = z.object({
  assigned: z.boolean(),
  customerReply: z.boolean(),
  mentioned: z.boolean(),
  teamUnassigned: z.boolean(),
});
type Switches = z.infer<typeof switchesSchema>;

/** Each kind of ticket email, with what sends it. */
const KINDS: { name: keyof Switches; label: string; hint: string }[] = [
  { name: 'assigned', label: 'Assigned to me', hint: 'A ticket is assigned to me: by hand, when it is created, or by routing.' },
  { name: 'customerReply', label: 'Customer replies', hint: 'The customer replies on a ticket assigned to me.' },
  { name: 'mentioned', label: 'Mentions', hint: 'Someone mentions me (@email or @name) in an internal note.' },
  {
    name: 'teamUnassigned',
    label: "My team's unassigned tickets",
    hint: 'New tickets and customer replies of my teams while nobody is assigned (each also needs its kind above on).',
  },
];

export function NotificationPreferencesForm({
  userId,
  isSelf,
  preferences,
  onReload,
}: {
  userId: string;
  isSelf: boolean;
  preferences: NotificationPreferences;
  onReload: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<Switches>({ resolver: zodResolver(switchesSchema), defaultValues: switchesOf(preferences) });
  const save = useMutation({
    mutationFn: (values: Switches) => savePreferences(userId, isSelf, values),
    onSuccess: (saved) => {
      form.reset(switchesOf(saved));
      queryClient.setQueryData(notificationKeys.ofUser(userId), saved);
    },
    onError: (error) => showApiError(form, error),
  });
  const { errors, isDirty } = form.formState;
  useUnsavedChanges(isDirty);
  return (
    <form className="flex flex-col gap-4" onSubmit={form.handleSubmit((values) => save.mutate(values))}>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-base font-semibold">Email me when</legend>
        {KINDS.map((kind) => (
          <CheckboxField
            key={kind.name}
            label={kind.label}
            hint={kind.hint}
            error={errors[kind.name]?.message}
            {...form.register(kind.name)}
          />
        ))}
      </fieldset>
      <FormProblems errors={errors} onReload={onReload} />
      <div className="flex items-center gap-3">
        <Button type="submit" variant="primary" disabled={!isDirty || save.isPending}>
          Save notifications
        </Button>
        {save.isSuccess && !isDirty ? (
          <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            Saved.
          </p>
        ) : null}
      </div>
    </form>
  );
}

function switchesOf(preferences: NotificationPreferences): Switches {
  const { assigned, customerReply, mentioned, teamUnassigned } = preferences;
  return { assigned, customerReply, mentioned, teamUnassigned };
}
