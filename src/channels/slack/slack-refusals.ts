import { ErrorCode, WebClient } from '@slack/web-api';
import { publicBaseUrl } from '../../config.js';
import { enqueueEmail } from '../../delivery/outbox/outbox.service.js';
import { storableText } from '../../lib/storable-text.js';
import { listOrganizationAdmins } from '../../platform/users/user.lookup.js';
import { revokeSlackInstallation, type SlackInstallationRow } from './slack.repository.js';
import { disconnectSlackChannel } from './slack-channel.repository.js';
import type { SlackDeps } from './slack-install.service.js';

/** How long one Web API call of background work may take before it counts as failed. */
const CALL_TIMEOUT_MS = 10_000;

/**
 * A Web API client for background work: a `ratelimited` answer is thrown at once with its
 * `Retry-After` (the worker reschedules the job rather than holding its lease while it waits),
 * and nothing is retried inside the call: the job's own backoff does it.
 */
export function slackJobClient(config: SlackDeps['config'], token: string): WebClient {
  return new WebClient(token, {
    slackApiUrl: config.SLACK_API_URL,
    allowAbsoluteUrls: false,
    timeout: CALL_TIMEOUT_MS,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
  });
}

/** Slack refuses the bot in the channel: it is disconnected, and no retry helps. */
export const CHANNEL_REFUSALS = ['not_in_channel', 'channel_not_found', 'is_archived'] as const;
/** Slack no longer knows the bot's token: the installation is revoked. */
export const TOKEN_REFUSALS = ['invalid_auth', 'token_revoked', 'account_inactive'] as const;

/** What a failed Web API call means for the job that made it. */
export type SlackFailure =
  | { kind: 'ratelimited'; retryAfterSeconds: number; reason: string }
  | { kind: 'channel'; error: string; reason: string }
  | { kind: 'token'; error: string; reason: string }
  | { kind: 'transient'; reason: string }
  | { kind: 'refused'; reason: string };

/** Reads a failed call: Slack's own error code when it answered, else a transient failure (Slack unreachable). */
export function classifySlackFailure(error: unknown): SlackFailure {
  const failure = error as { code?: unknown; retryAfter?: unknown; data?: { error?: unknown }; message?: unknown };
  if (failure.code === ErrorCode.RateLimitedError) {
    const retryAfterSeconds = typeof failure.retryAfter === 'number' ? failure.retryAfter : 60;
    return { kind: 'ratelimited', retryAfterSeconds, reason: `ratelimited: Slack asked to retry after ${retryAfterSeconds} s` };
  }
  if (failure.code === ErrorCode.PlatformError && typeof failure.data?.error === 'string') {
    const code = failure.data.error;
    if ((CHANNEL_REFUSALS as readonly string[]).includes(code)) {
      return { kind: 'channel', error: code, reason: `${code}: Slack refuses the bot in this channel (invite it back)` };
    }
    if ((TOKEN_REFUSALS as readonly string[]).includes(code)) {
      return { kind: 'token', error: code, reason: `${code}: the Slack app's token is no longer valid (install it again)` };
    }
    if (code === 'internal_error' || code === 'fatal_error' || code === 'service_unavailable' || code === 'request_timeout') {
      return { kind: 'transient', reason: code };
    }
    return { kind: 'refused', reason: code };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'transient', reason: storableText(`Slack unreachable: ${message}`).slice(0, 1000) };
}

/**
 * Acts on a refusal that outlives the job: a channel Slack refuses is disconnected, a dead token
 * revokes the installation; either way the organization's admins are told, once (only the call
 * that changed the row tells them). Tickets and comments stay as they are.
 */
export async function actOnSlackRefusal(
  deps: SlackDeps,
  installation: SlackInstallationRow,
  channelId: string,
  failure: SlackFailure,
): Promise<void> {
  const now = deps.clock.now().toISOString();
  const organizationId = installation.organization_id;
  if (failure.kind === 'channel') {
    if (await disconnectSlackChannel(deps.db, organizationId, channelId, failure.error, now)) {
      await tellAdmins(deps, organizationId, `slack-channel:${channelId}:${now}`, {
        subject: 'Slack: a channel was disconnected',
        text:
          `Slack refused Switchboard's bot in channel ${channelId} (${failure.error}). Replies and triage posts there ` +
          'stop until the bot is invited back; the tickets and their comments are kept in Switchboard.',
      });
    }
    deps.log.warn({ organizationId, channelId, error: failure.error }, 'Slack channel disconnected');
  } else if (failure.kind === 'token') {
    if (await revokeSlackInstallation(deps.db, installation.team_id, failure.error, now)) {
      await tellAdmins(deps, organizationId, `slack-installation:${installation.team_id}:${now}`, {
        subject: 'Slack: the app must be installed again',
        text:
          `Slack no longer accepts Switchboard's token for workspace ${installation.team_name} (${failure.error}). ` +
          'Nothing is posted to Slack until an admin installs the app again; the tickets are kept in Switchboard.',
      });
    }
    deps.log.warn({ organizationId, teamId: installation.team_id, error: failure.error }, 'Slack installation revoked');
  }
}

async function tellAdmins(deps: SlackDeps, organizationId: string, key: string, message: { subject: string; text: string }) {
  const admins = await listOrganizationAdmins(deps.db, organizationId);
  const settings = `${publicBaseUrl(deps.config, 'platform')}/app/settings/channels`;
  for (const admin of admins) {
    await enqueueEmail(deps.db, deps, {
      organizationId,
      dedupeKey: `${key}:${admin.id}`,
      to: admin.email,
      subject: message.subject,
      text: `${message.text}\n\nSlack settings: ${settings}`,
    });
  }
}
