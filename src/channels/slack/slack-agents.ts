import type { Principal } from '../../lib/principal.js';
import { findLiveUserByEmail } from '../../platform/users/user.lookup.js';
import type { SlackInstallationRow } from './slack.repository.js';
import { slackClient } from './slack-client.js';
import { openBotToken, slackErrorCode } from './slack-install.service.js';
import type { SlackWorkerDeps } from './slack-worker-deps.js';

/** Who a Slack user is to the organization: one of its agents (acting as them), or why not. */
export type SlackAgentMatch = { agent: Principal; name: string } | { agent: null; reason: string };

/** Slack's answers that mean "no such person to act as", rather than a failure worth a retry. */
const UNKNOWN_USER_ERRORS = new Set(['user_not_found', 'users_not_found', 'user_not_visible']);

interface SlackUserProfile {
  team_id?: string;
  deleted?: boolean;
  is_bot?: boolean;
  enterprise_user?: { enterprise_id?: string };
  profile?: { email?: string };
}

/**
 * Finds the organization's agent behind a Slack user: `users.info` gives the profile's email, and
 * the organization's live, enabled user with that email is the agent. Only people of the
 * installation's own workspace (or its Enterprise Grid) count: a customer from a Slack Connect
 * workspace is never taken for an agent, whatever email their profile shows. Answers are kept for
 * the call that made this finder only, so a change of email in Slack counts from the next command.
 */
export function slackAgentFinder(deps: SlackWorkerDeps, installation: SlackInstallationRow) {
  const known = new Map<string, Promise<SlackAgentMatch>>();
  return (slackUserId: string): Promise<SlackAgentMatch> => {
    let match = known.get(slackUserId);
    if (!match) {
      match = matchSlackAgent(deps, installation, slackUserId);
      known.set(slackUserId, match);
    }
    return match;
  };
}

async function matchSlackAgent(
  deps: SlackWorkerDeps,
  installation: SlackInstallationRow,
  slackUserId: string,
): Promise<SlackAgentMatch> {
  const token = openBotToken(deps, installation);
  if (!token) {
    return { agent: null, reason: 'bot_token_unreadable' };
  }
  let user: SlackUserProfile | undefined;
  try {
    user = (await slackClient(deps.config, token).users.info({ user: slackUserId })).user as SlackUserProfile | undefined;
  } catch (error) {
    if (UNKNOWN_USER_ERRORS.has(slackErrorCode(error))) {
      return { agent: null, reason: 'slack_user_not_found' };
    }
    // Unreachable, rate limited past the client's retries, a revoked token: the job tries again later.
    throw error;
  }
  if (!user || user.deleted || user.is_bot) {
    return { agent: null, reason: 'not_a_person' };
  }
  const ownWorkspace =
    user.team_id === installation.team_id ||
    (installation.enterprise_id !== null && user.enterprise_user?.enterprise_id === installation.enterprise_id);
  if (!ownWorkspace) {
    return { agent: null, reason: 'outside_the_workspace' };
  }
  const email = user.profile?.email;
  if (!email) {
    return { agent: null, reason: 'no_email' };
  }
  const found = await findLiveUserByEmail(deps.db, installation.organization_id, email);
  if (!found || found.disabled_at) {
    return { agent: null, reason: 'not_an_agent' };
  }
  return {
    agent: { organizationId: found.organization_id, userId: found.id, userType: found.user_type },
    name: found.name,
  };
}
