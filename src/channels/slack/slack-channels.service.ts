import type { WebClient } from '@slack/web-api';
import { readJson } from '../../db/dialect.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { accountExists, findAccountOfDomain } from '../../platform/accounts/account.lookup.js';
import { requireOrgAdmin } from '../../platform/authorization.js';
import { requireTeam } from '../../platform/teams/team.lookup.js';
import { findSlackInstallation, type SlackInstallationRow } from './slack.repository.js';
import type { SlackDetectionRules, UpdateSlackChannel } from './slack-admin.schemas.js';
import { findSlackChannel, listSlackChannelRows, type SlackChannelRow, saveSlackChannel } from './slack-channel.repository.js';
import { slackClient } from './slack-client.js';
import { openBotToken, type SlackDeps, slackErrorCode } from './slack-install.service.js';

/** A guard against a workspace that keeps answering cursors: 100 pages of 200 channels. */
const MAX_LIST_PAGES = 100;
const LIST_PAGE_SIZE = 200;
const DEFAULT_GROUP_WINDOW_SECONDS = 120;

/** A channel as Slack describes it to the bot. */
interface SlackConversation {
  id: string;
  name: string;
  isPrivate: boolean;
  isShared: boolean;
}

export const SLACK_CHANNEL_NOT_FOUND = 'Slack channel not found: the bot is not in it';

/** The organization's installation and an open client on its bot token; 409 when there is none that works. */
async function connectToSlack(deps: SlackDeps, organizationId: string, whenMissing: () => AppError) {
  const installation = await findSlackInstallation(deps.db, organizationId);
  if (!installation) {
    throw whenMissing();
  }
  const token = installation.status === 'active' ? openBotToken(deps, installation) : null;
  if (!token) {
    throw AppError.conflict(
      `Slack is ${installation.status === 'active' ? 'installed with a token this server cannot open' : 'uninstalled or its token revoked'}: install it again`,
    );
  }
  return { installation, client: slackClient(deps.config, token) };
}

/** A Web API call whose failure is Slack's, answered as a 502 naming Slack's error. */
async function callSlack<T>(method: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new AppError({ code: 'BAD_GATEWAY', message: `Slack answered ${slackErrorCode(error)} to ${method}`, cause: error });
  }
}

/** Every channel the bot is a member of, public and private, not archived, following Slack's cursors. */
async function channelsOfBot(client: WebClient): Promise<SlackConversation[]> {
  const found: SlackConversation[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const answer = await callSlack('conversations.list', () =>
      client.conversations.list({
        types: 'public_channel,private_channel',
        exclude_archived: true,
        limit: LIST_PAGE_SIZE,
        ...(cursor ? { cursor } : {}),
      }),
    );
    for (const channel of answer.channels ?? []) {
      if (channel.is_member && channel.id) {
        found.push({
          id: channel.id,
          name: channel.name ?? channel.id,
          isPrivate: channel.is_private === true,
          isShared: channel.is_ext_shared === true,
        });
      }
    }
    cursor = answer.response_metadata?.next_cursor || undefined;
    if (!cursor) {
      break;
    }
  }
  return found;
}

/**
 * The account a Slack Connect channel's partner workspace belongs to: each other workspace of the
 * channel (`connected_team_ids`, without our own), its email domains and its Slack domain looked
 * up among the organization's account domains. `teamDomains` keeps each workspace's answer for
 * the rest of the request. A failing look-up only leaves the suggestion out.
 */
async function suggestAccount(
  deps: SlackDeps,
  client: WebClient,
  installation: SlackInstallationRow,
  connectedTeamIds: readonly string[],
  teamDomains: Map<string, Promise<string[]>>,
): Promise<string | null> {
  for (const teamId of connectedTeamIds.filter((id) => id !== installation.team_id)) {
    let domains = teamDomains.get(teamId);
    if (!domains) {
      domains = client.team
        .info({ team: teamId })
        .then(({ team }) =>
          [...(team?.email_domain ?? '').split(','), team?.domain ?? '']
            .map((domain) => domain.trim().toLowerCase())
            .filter(Boolean),
        );
      teamDomains.set(teamId, domains);
    }
    for (const domain of await domains) {
      const account = await findAccountOfDomain(deps.db, installation.organization_id, domain);
      if (account) {
        return account.id;
      }
    }
  }
  return null;
}

async function suggestAccountOfChannel(
  deps: SlackDeps,
  client: WebClient,
  installation: SlackInstallationRow,
  channelId: string,
  teamDomains: Map<string, Promise<string[]>>,
): Promise<string | null> {
  try {
    const { channel } = await client.conversations.info({ channel: channelId });
    const connected = (channel as { connected_team_ids?: string[] } | undefined)?.connected_team_ids ?? [];
    return await suggestAccount(deps, client, installation, connected, teamDomains);
  } catch (error) {
    deps.log.warn({ err: error, channelId }, 'No account suggested for a Slack Connect channel: Slack did not say its partner');
    return null;
  }
}

/** A channel as the API shows it: what Slack says of it, with what the organization keeps (defaults where nothing). */
function presentChannel(conversation: SlackConversation, row: SlackChannelRow | undefined, suggestedAccountId: string | null) {
  return {
    channelId: conversation.id,
    name: conversation.name,
    isPrivate: conversation.isPrivate,
    isShared: conversation.isShared,
    kind: row?.kind ?? 'ignored',
    accountId: row?.account_id ?? null,
    teamId: row?.team_id ?? null,
    detectionMode: row?.detection_mode ?? 'rules',
    groupWindowSeconds: row?.group_window_seconds ?? DEFAULT_GROUP_WINDOW_SECONDS,
    detectionRules: readJson<SlackDetectionRules>(row?.detection_rules ?? null),
    status: row?.status ?? 'connected',
    disconnectedReason: row?.disconnected_reason ?? null,
    suggestedAccountId,
  };
}

export type SlackChannelView = ReturnType<typeof presentChannel>;

/**
 * The channels the bot is in, read from Slack, each with the organization's settings, by name;
 * then the channels the organization set up that the bot is no longer in (disconnected, with why).
 */
export async function listSlackChannels(deps: SlackDeps, principal: Principal): Promise<SlackChannelView[]> {
  requireOrgAdmin(principal);
  const { installation, client } = await connectToSlack(deps, principal.organizationId, () =>
    AppError.conflict('Slack is not installed: install it first'),
  );
  const [conversations, rows] = await Promise.all([
    channelsOfBot(client),
    listSlackChannelRows(deps.db, principal.organizationId),
  ]);
  const rowOf = new Map(rows.map((row) => [row.channel_id, row]));
  const teamDomains = new Map<string, Promise<string[]>>();
  const listed: SlackChannelView[] = [];
  for (const conversation of conversations.sort((a, b) => a.name.localeCompare(b.name))) {
    const row = rowOf.get(conversation.id);
    // Once an account is chosen, nothing is suggested: the look-ups are Slack calls of their own.
    const suggested =
      conversation.isShared && !row?.account_id
        ? await suggestAccountOfChannel(deps, client, installation, conversation.id, teamDomains)
        : null;
    listed.push(presentChannel(conversation, row, suggested));
  }
  const inSlack = new Set(conversations.map((conversation) => conversation.id));
  const gone = rows.filter((row) => !inSlack.has(row.channel_id) && (row.kind !== 'ignored' || row.status === 'disconnected'));
  for (const row of gone) {
    listed.push(presentChannel({ id: row.channel_id, name: row.name, isPrivate: false, isShared: false }, row, null));
  }
  return listed;
}

/** The channel as Slack answers it to the bot: 404 when Slack knows no such channel or the bot is not in it. */
async function requireBotChannel(client: WebClient, channelId: string) {
  let answer: Awaited<ReturnType<WebClient['conversations']['info']>>;
  try {
    answer = await client.conversations.info({ channel: channelId });
  } catch (error) {
    const code = slackErrorCode(error);
    if (code === 'channel_not_found') {
      throw AppError.notFound(SLACK_CHANNEL_NOT_FOUND);
    }
    throw new AppError({ code: 'BAD_GATEWAY', message: `Slack answered ${code} to conversations.info`, cause: error });
  }
  const channel = answer.channel;
  if (!channel?.id || channel.is_member !== true || channel.is_archived === true) {
    throw AppError.notFound(SLACK_CHANNEL_NOT_FOUND);
  }
  return channel;
}

/**
 * A customer channel's requests become tickets of its team: a channel that would be a customer one
 * without a team is refused (400), rather than left to keep decisions that can never be filed.
 */
async function requireTeamOfCustomerChannel(
  deps: SlackDeps,
  organizationId: string,
  channelId: string,
  input: UpdateSlackChannel,
): Promise<void> {
  const stored = await findSlackChannel(deps.db, organizationId, channelId);
  const kind = input.kind ?? stored?.kind ?? 'ignored';
  const teamId = input.teamId === undefined ? (stored?.team_id ?? null) : input.teamId;
  if (kind === 'customer' && !teamId) {
    throw AppError.invalid('A customer channel needs the team that gets its tickets: set teamId', {
      location: 'body',
      path: ['teamId'],
      rule: 'required',
    });
  }
}

/**
 * An admin's settings for a channel the bot is in: the account and team must be the
 * organization's, the channel one Slack answers the bot (a disconnected channel it answers again is
 * connected again). Nothing is written when a check fails.
 */
export async function updateSlackChannel(
  deps: SlackDeps,
  principal: Principal,
  channelId: string,
  input: UpdateSlackChannel,
): Promise<SlackChannelView> {
  requireOrgAdmin(principal);
  const organizationId = principal.organizationId;
  // No workspace installed: the organization has no channel of that id.
  const { installation, client } = await connectToSlack(deps, organizationId, () => AppError.notFound(SLACK_CHANNEL_NOT_FOUND));
  if (input.accountId && !(await accountExists(deps.db, organizationId, input.accountId))) {
    throw AppError.notFound('Account not found!');
  }
  if (input.teamId) {
    await requireTeam(deps.db, organizationId, input.teamId);
  }
  await requireTeamOfCustomerChannel(deps, organizationId, channelId, input);
  const channel = await requireBotChannel(client, channelId);
  const now = deps.clock.now().toISOString();
  const changes = {
    name: channel.name ?? channelId,
    ...(input.kind === undefined ? {} : { kind: input.kind }),
    ...(input.accountId === undefined ? {} : { account_id: input.accountId }),
    ...(input.teamId === undefined ? {} : { team_id: input.teamId }),
    ...(input.detectionMode === undefined ? {} : { detection_mode: input.detectionMode }),
    ...(input.groupWindowSeconds === undefined ? {} : { group_window_seconds: input.groupWindowSeconds }),
    ...(input.detectionRules === undefined
      ? {}
      : { detection_rules: input.detectionRules === null ? null : JSON.stringify(input.detectionRules) }),
    status: 'connected' as const,
    disconnected_reason: null,
    updated_at: now,
  };
  const row = await saveSlackChannel(
    deps.db,
    { id: deps.ids.ulid(), organization_id: organizationId, channel_id: channelId, created_at: now, ...changes },
    changes,
  );
  const conversation = {
    id: channelId,
    name: row.name,
    isPrivate: channel.is_private === true,
    isShared: channel.is_ext_shared === true,
  };
  const connected = (channel as { connected_team_ids?: string[] }).connected_team_ids ?? [];
  const suggested =
    conversation.isShared && !row.account_id
      ? await suggestAccount(deps, client, installation, connected, new Map()).catch(() => null)
      : null;
  return presentChannel(conversation, row, suggested);
}
