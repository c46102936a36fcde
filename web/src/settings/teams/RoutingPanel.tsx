import { useQuery } from '@tanstack/react-query';
import { CheckboxField, SelectField } from '../../ui/FormField';
import { ConfigurationSaveBar } from './ConfigurationSaveBar';
import { subTeamsQuery } from './team-queries';
import { type ConfigurationForm, ROUTING_SWITCHES } from './use-configuration-form';

type RoutingSwitch = (typeof ROUTING_SWITCHES)[number];

/** What each switch changes about who is given the team's tickets. */
const SWITCHES: Record<RoutingSwitch, { label: string; hint: string }> = {
  routingRespectsTimezone: {
    label: "Assign only within the team's business hours",
    hint: 'Outside them, new tickets wait in the queue and are assigned when the team opens.',
  },
  routingRespectsUserCapacity: {
    label: "Respect each member's capacity",
    hint: 'A member with as many open tickets as their capacity is skipped. Assigning by hand may still go over it.',
  },
  routingRespectsUserTimezone: {
    label: "Respect each member's time zone",
    hint: "A member's own hours are read in their own time zone, not the team's.",
  },
  routingRespectsUserAvailability: {
    label: 'Assign only to members who are online',
    hint: 'Members set to away or offline are skipped until they are back online.',
  },
  routingRespectsUserBusinessHours: {
    label: "Respect each member's own working hours",
    hint: 'A member outside their own hours is skipped.',
  },
};

const STRATEGIES = [
  { value: 'manual', label: 'Manual: nobody is assigned automatically' },
  { value: 'round_robin', label: 'Round robin: the eligible member who has waited longest' },
];

/**
 * How the team's tickets find a member: who is eligible (the switches), who of them is picked
 * (the strategy), and which sub-team takes over when nobody is.
 */
export function RoutingPanel({ teamId, configuration }: { teamId: string; configuration: ConfigurationForm }) {
  const { form, submit } = configuration;
  const subTeams = useQuery(subTeamsQuery(teamId));
  const errors = form.formState.errors;
  const fallbackOptions = [
    { value: '', label: 'None: tickets wait in the queue' },
    ...(subTeams.data ?? []).map((team) => ({ value: team.id, label: team.name })),
  ];
  return (
    <form className="flex flex-col gap-5" noValidate onSubmit={submit}>
      <SelectField
        label="Assignment strategy"
        hint="Manual leaves tickets for members to pick up; round robin spreads them over the eligible members."
        className="max-w-md"
        options={STRATEGIES}
        error={errors.userRoutingStrategy?.message}
        {...form.register('userRoutingStrategy')}
      />
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-semibold">Who is eligible</legend>
        {ROUTING_SWITCHES.map((name) => (
          <CheckboxField
            key={name}
            label={SWITCHES[name].label}
            hint={SWITCHES[name].hint}
            error={errors[name]?.message}
            {...form.register(name)}
          />
        ))}
      </fieldset>
      <SelectField
        label="Fallback sub-team"
        hint={
          fallbackOptions.length > 1
            ? "When no member is eligible, the tickets go through this sub-team's assignment instead."
            : 'This team has no sub-teams yet: create one under it on the Teams page to use as a fallback.'
        }
        className="max-w-md"
        options={fallbackOptions}
        error={errors.fallbackSubTeam?.message}
        {...form.register('fallbackSubTeam')}
      />
      <ConfigurationSaveBar configuration={configuration} />
    </form>
  );
}
