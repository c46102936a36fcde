import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { api, unwrap } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { InputField, SelectField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { showApiError } from '../../ui/use-api-form';
import { type TeamMember, teamKeys } from './team-queries';

const AVAILABILITY = [
  { value: 'online', label: 'Online' },
  { value: 'away', label: 'Away' },
  { value: 'offline', label: 'Offline' },
];

const MemberSettingsSchema = z.object({
  status: z.enum(['online', 'away', 'offline']),
  capacity: z.string().regex(/^\d*$/, 'A whole number, or empty for no limit'),
  timezone: z.string(),
});
type MemberSettings = z.infer<typeof MemberSettingsSchema>;

const settingsOf = (member: TeamMember): MemberSettings => ({
  status: member.status === 'away' || member.status === 'offline' ? member.status : 'online',
  capacity: member.capacity === null ? '' : String(member.capacity),
  timezone: member.timezone ?? '',
});

/** One member and the settings routing reads from them, saved to the user (`PATCH /v1/users/{id}`). */
export function MemberRow({
  member,
  teamId,
  zoneListId,
  onRemove,
}: {
  member: TeamMember;
  teamId: string;
  zoneListId: string;
  onRemove: () => void;
}) {
  const form = useForm<MemberSettings>({ resolver: zodResolver(MemberSettingsSchema), values: settingsOf(member) });
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: async (values: MemberSettings) =>
      unwrap(
        api.PATCH('/v1/users/{userId}', {
          params: { path: { userId: member.id } },
          body: {
            status: values.status,
            capacity: values.capacity === '' ? null : Number(values.capacity),
            timezone: values.timezone.trim() || null,
          },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.allMembers(teamId) }),
    onError: (error) => showApiError(form, error),
  });
  const errors = form.formState.errors;
  return (
    <li className="flex flex-col gap-2 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-medium">{member.name}</span>
        <span className="text-sm text-zinc-500 dark:text-zinc-400">{member.email}</span>
        {member.isOwner ? <Badge tone="blue">Owner</Badge> : member.isAdmin ? <Badge tone="violet">Team admin</Badge> : null}
      </div>
      <form
        className="flex flex-wrap items-start gap-3"
        noValidate
        aria-label={`Routing settings of ${member.name}`}
        onSubmit={form.handleSubmit((values) => save.mutate(values))}
      >
        <SelectField
          label={`Availability of ${member.name}`}
          options={AVAILABILITY}
          error={errors.status?.message}
          {...form.register('status')}
        />
        <InputField
          label={`Capacity of ${member.name}`}
          inputMode="numeric"
          placeholder="No limit"
          className="w-36"
          error={errors.capacity?.message}
          {...form.register('capacity')}
        />
        <InputField
          label={`Time zone of ${member.name}`}
          list={zoneListId}
          placeholder="The team's"
          autoComplete="off"
          error={errors.timezone?.message}
          {...form.register('timezone')}
        />
        <div className="flex gap-2 self-end">
          <Button type="submit" disabled={!form.formState.isDirty || save.isPending}>
            Save
          </Button>
          {member.isOwner ? null : (
            <Button variant="ghost" aria-label={`Remove ${member.name} from the team`} onClick={onRemove}>
              Remove
            </Button>
          )}
        </div>
      </form>
      <FormProblems errors={errors} />
    </li>
  );
}
