import { useForm } from 'react-hook-form';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { InputField, SelectField } from '../../ui/FormField';
import { type SlackChannel, type TeamOption, useSaveSlackChannel } from './slack-queries';

interface ChannelValues {
  kind: 'customer' | 'triage' | 'ignored';
  accountId: string;
  teamId: string;
  detectionMode: 'all' | 'rules' | 'ai';
  groupWindowSeconds: string;
}

const KINDS = [
  { value: 'ignored', label: 'Ignored' },
  { value: 'customer', label: 'Customer' },
  { value: 'triage', label: 'Triage' },
] as const;

const MODES = [
  { value: 'rules', label: 'Rules' },
  { value: 'all', label: 'Every message' },
  { value: 'ai', label: 'AI' },
] as const;

const valuesOf = (channel: SlackChannel): ChannelValues => ({
  kind: channel.kind,
  // A Slack Connect channel without an account starts on the one its partner's domain suggests.
  accountId: channel.accountId ?? channel.suggestedAccountId ?? '',
  teamId: channel.teamId ?? '',
  detectionMode: channel.detectionMode,
  groupWindowSeconds: String(channel.groupWindowSeconds),
});

/** One channel the bot is in, and what it is for here: a form of its own, saved on its own. */
export function SlackChannelForm({
  channel,
  accounts,
  teams,
}: {
  channel: SlackChannel;
  accounts: readonly { value: string; label: string }[];
  teams: readonly TeamOption[];
}) {
  const save = useSaveSlackChannel(channel.channelId);
  const form = useForm<ChannelValues>({ values: valuesOf(channel) });
  const { register, handleSubmit, formState } = form;
  const suggested = channel.accountId === null && channel.suggestedAccountId !== null;
  const accountOptions = [{ value: '', label: 'No account' }, ...accounts];
  if (channel.suggestedAccountId && !accounts.some((account) => account.value === channel.suggestedAccountId)) {
    accountOptions.push({ value: channel.suggestedAccountId, label: channel.suggestedAccountId });
  }
  const onSubmit = handleSubmit((values) =>
    save.mutate({
      kind: values.kind,
      accountId: values.accountId || null,
      teamId: values.teamId || null,
      detectionMode: values.detectionMode,
      groupWindowSeconds: Number(values.groupWindowSeconds),
    }),
  );
  return (
    <li className="px-3 py-3">
      <form aria-label={`#${channel.name}`} onSubmit={onSubmit} noValidate className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="text-sm font-semibold">#{channel.name}</h3>
          {channel.isPrivate ? <Badge>Private</Badge> : null}
          {channel.isShared ? <Badge tone="violet">Slack Connect</Badge> : null}
          {channel.status === 'disconnected' ? (
            <Badge tone="red">Disconnected: {channel.disconnectedReason ?? 'Slack refused the bot'}</Badge>
          ) : null}
        </div>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-5">
          <SelectField label="Kind" options={KINDS} {...register('kind')} />
          <SelectField
            label="Account"
            options={accountOptions}
            hint={suggested ? "Suggested from the partner workspace's domain" : undefined}
            {...register('accountId')}
          />
          <SelectField
            label="Team"
            options={[{ value: '', label: 'No team' }, ...teams.map((team) => ({ value: team.id, label: team.name }))]}
            {...register('teamId')}
          />
          <SelectField label="Detection" options={MODES} {...register('detectionMode')} />
          <InputField
            label="Grouping window (seconds)"
            type="number"
            min={30}
            max={3600}
            error={formState.errors.groupWindowSeconds?.message}
            {...register('groupWindowSeconds', {
              validate: (value) => {
                const seconds = Number(value);
                return (Number.isInteger(seconds) && seconds >= 30 && seconds <= 3600) || 'Between 30 and 3600 seconds';
              },
            })}
          />
        </div>
        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={save.isPending}>
            Save #{channel.name}
          </Button>
          {save.isSuccess && !formState.isDirty ? (
            <span role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
              Saved
            </span>
          ) : null}
        </div>
        <ErrorNotice error={save.error} />
      </form>
    </li>
  );
}
