import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { slackConfiguredQuery, slackInstallationQuery } from './slack-queries';

/** Slack's install page, reached through the API's redirect: a full-page navigation, as OAuth needs. */
function installSlack() {
  window.location.assign('/v1/integrations/slack/install');
}

/** The organization's Slack workspace: not set up on this server, not installed, or installed (and its state). */
export function SlackCard() {
  const configured = useQuery(slackConfiguredQuery);
  const installation = useQuery(slackInstallationQuery);
  const workspace = installation.data;
  return (
    <section aria-labelledby="slack-card-title" className="rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="slack-card-title" className="text-base font-semibold">
          Slack
        </h2>
        {workspace ? (
          <Badge tone={workspace.status === 'active' ? 'green' : 'red'}>
            {workspace.status === 'active' ? 'Installed' : 'Revoked'}
          </Badge>
        ) : null}
        {configured.data && !installation.isPending ? (
          <Button variant={workspace ? 'secondary' : 'primary'} className="ml-auto" onClick={installSlack}>
            {workspace ? 'Reinstall Slack' : 'Install Slack'}
          </Button>
        ) : null}
      </div>
      <ErrorNotice error={installation.error} className="mt-2" />
      {configured.data === false ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
          Slack is not set up on this server: its administrator sets SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET
          from the Slack app (see the README's Slack section).
        </p>
      ) : null}
      {workspace ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
          Workspace <strong className="text-zinc-900 dark:text-zinc-100">{workspace.teamName}</strong> ({workspace.teamId})
          {workspace.status === 'revoked'
            ? `: the app was uninstalled or its token revoked (${workspace.revokedReason ?? 'no reason given'}). Install it again.`
            : '.'}
        </p>
      ) : null}
      {configured.data && !workspace && !installation.isPending ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
          Install the app in your workspace, then invite the bot to the channels it should read.
        </p>
      ) : null}
    </section>
  );
}
