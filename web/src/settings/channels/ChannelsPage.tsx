import { useQuery } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useAccountChoices } from '../../ui/conditions/condition-catalog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { Tabs } from '../../ui/Tabs';
import { DetectionPanel } from './DetectionPanel';
import { SlackCard } from './SlackCard';
import { SlackChannelForm } from './SlackChannelForm';
import { SlackInstallBanner } from './SlackInstallBanner';
import { slackChannelsQuery, slackInstallationQuery, slackTeamsQuery } from './slack-queries';

type Tab = 'channels' | 'detection';
const TABS = [
  { value: 'channels', label: 'Channels' },
  { value: 'detection', label: 'Detection' },
] as const;

/** The channels the bot is in, each with what it is for here. */
function ChannelList() {
  const installation = useQuery(slackInstallationQuery);
  const active = installation.data?.status === 'active';
  const channels = useQuery(slackChannelsQuery(active));
  const teams = useQuery(slackTeamsQuery);
  const accounts = useAccountChoices();
  if (!active) {
    return null;
  }
  return (
    <div className="flex flex-col gap-2 p-4">
      <ErrorNotice error={channels.error} />
      {channels.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Asking Slack for the channels…</p> : null}
      {channels.data?.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          The bot is in no channel yet: invite it in Slack (/invite @Switchboard), then come back.
        </p>
      ) : null}
      {channels.data && channels.data.length > 0 ? (
        <ul
          aria-label="Slack channels"
          className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        >
          {channels.data.map((channel) => (
            <SlackChannelForm key={channel.channelId} channel={channel} accounts={accounts.options} teams={teams.data ?? []} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Slack as a channel: the workspace installed, its channels mapped, and how well requests are detected there. */
export function ChannelsPage() {
  // Where the OAuth callback sends the admin back, saying how the install went.
  const { slack, reason } = useSearch({ strict: false }) as { slack?: string; reason?: string };
  const [tab, setTab] = useState<Tab>('channels');
  return (
    <div>
      <PageHeader title="Channels" description="Slack workspaces whose customer channels become tickets." />
      <div className="flex flex-col gap-4 p-4">
        <SlackInstallBanner outcome={slack} reason={reason} />
        <SlackCard />
      </div>
      <Tabs label="Slack" value={tab} onValueChange={setTab} items={TABS}>
        {tab === 'channels' ? <ChannelList /> : <DetectionPanel />}
      </Tabs>
    </div>
  );
}
