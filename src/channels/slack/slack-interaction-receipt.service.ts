import { AppError } from '../../lib/errors.js';
import { findSlackInstallationByTeam, insertSlackEventOnce } from './slack.repository.js';
import type { SlackDeps } from './slack-install.service.js';

/** What the interactions URL did with a signed request, for the log and the tests. */
export type SlackInteractionReceipt = { kind: 'kept' | 'duplicate' } | { kind: 'ignored'; reason: string };

/** The id an interaction is kept by in `slack_events`, beside the Events API's `Ev…` ids. */
export const interactionEventId = (triggerId: string) => `interaction:${triggerId}`;

/** The form's `payload` field, parsed; a body that is no such form is the sender's fault (400). */
function payloadOf(rawBody: string): { text: string; payload: Record<string, unknown> } {
  const text = new URLSearchParams(rawBody).get('payload');
  if (text === null) {
    throw new AppError({ code: 'MALFORMED_BODY', message: 'The form has no payload field' });
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    throw new AppError({ code: 'MALFORMED_BODY', message: 'The payload field is not JSON', cause: error });
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new AppError({ code: 'MALFORMED_BODY', message: 'The payload field is not a JSON object' });
  }
  return { text, payload: payload as Record<string, unknown> };
}

const idOf = (value: unknown): string | null => {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id !== '' ? id : null;
};

/**
 * A signed interaction (a click on a triage post's button), kept once as a job in `slack_events`
 * by its `trigger_id`, so Slack hears back within its 3 seconds and a replay inside the
 * signature's window is kept once. The worker acts on it (`runSlackInteraction`). An interaction
 * of a workspace no organization installed, or one without a trigger, is ignored with the reason
 * logged: nothing is written for it.
 */
export async function receiveSlackInteraction(deps: SlackDeps, rawBody: string): Promise<SlackInteractionReceipt> {
  const { text, payload } = payloadOf(rawBody);
  const teamId = idOf(payload.team);
  const triggerId = typeof payload.trigger_id === 'string' && payload.trigger_id !== '' ? payload.trigger_id : null;
  const type = typeof payload.type === 'string' ? payload.type : null;
  if (!teamId || !triggerId || !type) {
    deps.log.info({ type, teamId }, 'Slack interaction ignored: no team, trigger or type');
    return { kind: 'ignored', reason: 'incomplete' };
  }
  const installation = await findSlackInstallationByTeam(deps.db, teamId);
  if (installation?.status !== 'active') {
    deps.log.warn({ teamId, triggerId }, 'Slack interaction ignored: its workspace is not installed');
    return { kind: 'ignored', reason: 'not_installed' };
  }
  const now = deps.clock.now().toISOString();
  const kept = await insertSlackEventOnce(deps.db, {
    event_id: interactionEventId(triggerId),
    organization_id: installation.organization_id,
    team_id: teamId,
    event_type: type,
    channel_id: idOf(payload.channel),
    payload: text,
    event_time: now,
    status: 'pending',
    received_at: now,
  });
  if (!kept) {
    deps.log.info({ triggerId }, 'Slack interaction already kept (a replay): ignored');
    return { kind: 'duplicate' };
  }
  return { kind: 'kept' };
}
