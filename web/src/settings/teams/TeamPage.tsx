import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { ChevronLeft } from 'lucide-react';
import { Badge } from '../../ui/Badge';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { Tabs } from '../../ui/Tabs';
import { useUnsavedChanges } from '../../ui/use-unsaved-changes';
import { BusinessHoursPanel } from './BusinessHoursPanel';
import { MembersPanel } from './MembersPanel';
import { RoutingPanel } from './RoutingPanel';
import { SatisfactionPanel } from './SatisfactionPanel';
import { StatusesPanel } from './StatusesPanel';
import { TagsPanel } from './TagsPanel';
import { teamQuery } from './team-queries';
import { type ConfigurationForm, useConfigurationForm } from './use-configuration-form';

const TABS = [
  { value: 'members', label: 'Members' },
  { value: 'tags', label: 'Tags' },
  { value: 'hours', label: 'Business hours' },
  { value: 'routing', label: 'Routing' },
  { value: 'statuses', label: 'Statuses' },
  { value: 'satisfaction', label: 'Satisfaction survey' },
] as const;
type Tab = (typeof TABS)[number]['value'];

const tabOf = (value: unknown): Tab => TABS.find((tab) => tab.value === value)?.value ?? 'members';

/**
 * One team: its members, tags, business hours, routing, ticket statuses and satisfaction survey,
 * each a tab with its own address (`?tab=hours`). Hours and routing are one configuration, kept across the two tabs and saved
 * by one PATCH; leaving with it unsaved asks first.
 */
export function TeamPage() {
  const { teamId } = useParams({ strict: false }) as { teamId: string };
  const tab = tabOf((useSearch({ strict: false }) as { tab?: string }).tab);
  const navigate = useNavigate();
  const team = useQuery(teamQuery(teamId));
  const configuration = useConfigurationForm(teamId);
  useUnsavedChanges(configuration.form.formState.isDirty);
  const name = team.data?.name ?? 'Team';
  return (
    <div>
      <div className="px-4 pt-3">
        <Link
          to="/settings/teams"
          className="inline-flex items-center gap-1 text-sm text-blue-700 hover:underline dark:text-blue-400"
        >
          <ChevronLeft size={14} aria-hidden />
          All teams
        </Link>
      </div>
      <PageHeader
        title={name}
        description={
          team.data?.parentTeamName
            ? `Sub-team of ${team.data.parentTeamName}`
            : 'Members, tags, hours, routing, statuses and survey'
        }
        actions={team.data ? <Badge>{team.data.identifier}</Badge> : null}
      />
      <div className="p-4">
        <ErrorNotice error={team.error} />
        <Tabs
          label={`${name} settings`}
          value={tab}
          items={TABS}
          onValueChange={(next) => void navigate({ to: '.', search: { tab: next }, replace: true })}
        >
          <div className="pt-4">
            <TabPanel tab={tab} teamId={teamId} teamName={name} configuration={configuration} />
          </div>
        </Tabs>
      </div>
    </div>
  );
}

function TabPanel({
  tab,
  teamId,
  teamName,
  configuration,
}: {
  tab: Tab;
  teamId: string;
  teamName: string;
  configuration: ConfigurationForm;
}) {
  if (tab === 'members') {
    return <MembersPanel teamId={teamId} teamName={teamName} />;
  }
  if (tab === 'tags') {
    return <TagsPanel teamId={teamId} />;
  }
  if (tab === 'statuses') {
    return <StatusesPanel teamId={teamId} />;
  }
  if (tab === 'satisfaction') {
    return <SatisfactionPanel teamId={teamId} />;
  }
  if (configuration.error) {
    return <ErrorNotice error={configuration.error} />;
  }
  if (!configuration.ready) {
    return <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading the configuration…</p>;
  }
  return tab === 'hours' ? (
    <BusinessHoursPanel teamId={teamId} configuration={configuration} />
  ) : (
    <RoutingPanel teamId={teamId} configuration={configuration} />
  );
}
