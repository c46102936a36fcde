import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { type Config, publicBaseUrl } from '../../config.js';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { requireOrgAdmin } from '../../platform/authorization.js';
import { findSlackInstallation, type SlackInstallationRow, saveSlackInstallation } from './slack.repository.js';
import { slackClient } from './slack-client.js';
import { readSlackState, signSlackState } from './slack-oauth-state.js';

export interface SlackDeps {
  db: Kysely<DB>;
  config: Config;
  clock: Clock;
  ids: IdFactory;
  secretKey: Buffer;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/**
 * What the bot asks for: read the channels it is in (public and private, Slack Connect included)
 * and their messages, post and update messages under an agent's name and picture, read and add
 * reactions, read the people who write (with their email, to find their contact) and their files.
 */
export const SLACK_BOT_SCOPES = [
  'channels:history',
  'channels:read',
  'groups:history',
  'groups:read',
  'chat:write',
  'chat:write.customize',
  'reactions:read',
  'reactions:write',
  'users:read',
  'users:read.email',
  'files:read',
  'team:read',
] as const;

/** Where Slack sends the admin back (`redirect_uri`): the same on the authorize page and in the code exchange. */
export function slackRedirectUri(config: Config): string {
  return `${publicBaseUrl(config, 'platform')}/v1/integrations/slack/oauth/callback`;
}

/** The console page the admin lands on after Slack, told how it went. */
function consoleReturn(config: Config, outcome: { slack: 'installed' } | { slack: 'error'; reason: string }): string {
  const query = new URLSearchParams(outcome);
  return `${publicBaseUrl(config, 'platform')}/app/settings/channels?${query}`;
}

function requireSlackApp(config: Config): { clientId: string; clientSecret: string } {
  if (!config.SLACK_CLIENT_ID || !config.SLACK_CLIENT_SECRET || !config.SLACK_SIGNING_SECRET) {
    throw AppError.conflict(
      'Slack is not set up on this server: set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET from your Slack app',
    );
  }
  return { clientId: config.SLACK_CLIENT_ID, clientSecret: config.SLACK_CLIENT_SECRET };
}

/** Slack's authorize page for this admin's organization, with a signed `state` naming them. */
export function slackInstallUrl(deps: SlackDeps, principal: Principal): string {
  requireOrgAdmin(principal);
  const { clientId } = requireSlackApp(deps.config);
  const url = new URL(deps.config.SLACK_AUTHORIZE_URL);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('scope', SLACK_BOT_SCOPES.join(','));
  url.searchParams.set('redirect_uri', slackRedirectUri(deps.config));
  url.searchParams.set(
    'state',
    signSlackState(
      deps.secretKey,
      { organizationId: principal.organizationId, userId: principal.userId },
      deps.clock.now().getTime(),
    ),
  );
  return url.toString();
}

/** Bound to the organization (one installation each, whichever row id a concurrent reinstall keeps). */
const botTokenAad = (organizationId: string) => `slack_installation|${organizationId}|bot_token`;

export function sealBotToken(deps: Pick<SlackDeps, 'secretKey'>, organizationId: string, token: string): string {
  return createSecretBox(deps.secretKey).seal(token, botTokenAad(organizationId));
}

export function openBotToken(deps: Pick<SlackDeps, 'secretKey'>, installation: SlackInstallationRow): string | null {
  return createSecretBox(deps.secretKey).open(installation.bot_token_encrypted, botTokenAad(installation.organization_id));
}

/**
 * Slack's callback: checks `state`, exchanges the code for the bot's token (`oauth.v2.access`),
 * and keeps the installation. Answers where to send the admin's browser. A forged or expired
 * state, or an admin who cancelled, writes nothing and calls nothing.
 */
export async function completeSlackInstall(
  deps: SlackDeps,
  query: { code?: string; state?: string; error?: string },
): Promise<string> {
  const state = query.state ? readSlackState(deps.secretKey, query.state, deps.clock.now().getTime()) : null;
  if (!state) {
    deps.log.warn('Slack install callback refused: its state is missing, forged or expired');
    return consoleReturn(deps.config, { slack: 'error', reason: 'invalid_state' });
  }
  if (query.error || !query.code) {
    deps.log.info({ error: query.error }, 'Slack install cancelled on Slack');
    return consoleReturn(deps.config, { slack: 'error', reason: query.error ?? 'no_code' });
  }
  const { clientId, clientSecret } = requireSlackApp(deps.config);
  let granted: Awaited<ReturnType<ReturnType<typeof slackClient>['oauth']['v2']['access']>>;
  try {
    granted = await slackClient(deps.config).oauth.v2.access({
      client_id: clientId,
      client_secret: clientSecret,
      code: query.code,
      redirect_uri: slackRedirectUri(deps.config),
    });
  } catch (error) {
    deps.log.warn({ err: error }, 'Slack refused the install code');
    return consoleReturn(deps.config, { slack: 'error', reason: slackErrorCode(error) });
  }
  if (granted.token_type !== 'bot' || !granted.access_token || !granted.team?.id || !granted.bot_user_id || !granted.app_id) {
    deps.log.warn({ tokenType: granted.token_type }, 'Slack granted no bot token');
    return consoleReturn(deps.config, { slack: 'error', reason: 'no_bot_token' });
  }
  const now = deps.clock.now().toISOString();
  try {
    await saveSlackInstallation(deps.db, {
      id: deps.ids.ulid(),
      organization_id: state.organizationId,
      team_id: granted.team.id,
      team_name: granted.team.name ?? granted.team.id,
      enterprise_id: granted.enterprise?.id ?? null,
      app_id: granted.app_id,
      bot_user_id: granted.bot_user_id,
      bot_token_encrypted: sealBotToken(deps, state.organizationId, granted.access_token),
      scopes: granted.scope ?? '',
      installed_by: state.userId,
      status: 'active',
      created_at: now,
      updated_at: now,
    });
  } catch (error) {
    deps.log.warn({ err: error, teamId: granted.team.id }, 'Slack workspace already installed for another organization');
    return consoleReturn(deps.config, { slack: 'error', reason: 'workspace_taken' });
  }
  return consoleReturn(deps.config, { slack: 'installed' });
}

/** Slack's own error code of a failed call (`invalid_code`, `ratelimited`…), or `slack_unreachable`. */
export function slackErrorCode(error: unknown): string {
  const data = (error as { data?: { error?: unknown } }).data;
  return typeof data?.error === 'string' ? data.error : 'slack_unreachable';
}

/** The organization's installation as the API shows it (never the token), or null. */
export async function describeSlackInstallation(deps: SlackDeps, principal: Principal) {
  requireOrgAdmin(principal);
  const row = await findSlackInstallation(deps.db, principal.organizationId);
  return row
    ? {
        teamId: row.team_id,
        teamName: row.team_name,
        status: row.status,
        revokedReason: row.revoked_reason,
        scopes: row.scopes.split(',').filter(Boolean),
        installedBy: row.installed_by,
        installedAt: row.updated_at,
      }
    : null;
}
