import { findSlackInstallationByTeam, insertSlackEventOnce, revokeSlackInstallation } from './slack.repository.js';
import { findSlackChannel } from './slack-channel.repository.js';
import type { SlackDeps } from './slack-install.service.js';

/** What Slack POSTs to the events URL, as far as the receipt reads it; the rest is kept as sent. */
export interface SlackEnvelope {
  type?: unknown;
  challenge?: unknown;
  team_id?: unknown;
  event_id?: unknown;
  event_time?: unknown;
  event?: { type?: unknown; channel?: unknown; event_ts?: unknown; item?: { channel?: unknown } };
}

/** What the events URL answers Slack. */
export type SlackReceipt =
  | { kind: 'challenge'; challenge: string }
  | { kind: 'kept' | 'duplicate' | 'ignored' | 'revoked'; reason?: string };

/** Slack stops the app's token for these; nothing else can be done for the workspace until it is installed again. */
const REVOKING_EVENTS = new Set(['app_uninstalled', 'tokens_revoked']);

/**
 * A signed request from Slack to the events URL: the URL check's challenge, or an event kept once
 * by its `event_id` for the worker (so a retry or a replay inside the signature's window is kept
 * once). An event of a workspace no organization installed, or of an uninstalled one, is ignored
 * with the reason logged: nothing is written for it.
 */
export async function receiveSlackEvent(deps: SlackDeps, envelope: SlackEnvelope, rawBody: string): Promise<SlackReceipt> {
  if (envelope.type === 'url_verification' && typeof envelope.challenge === 'string') {
    return { kind: 'challenge', challenge: envelope.challenge };
  }
  if (envelope.type !== 'event_callback' || typeof envelope.team_id !== 'string' || typeof envelope.event_id !== 'string') {
    deps.log.info({ type: envelope.type }, 'Slack request ignored: not an event callback');
    return { kind: 'ignored', reason: 'not_an_event' };
  }
  const installation = await findSlackInstallationByTeam(deps.db, envelope.team_id);
  if (installation?.status !== 'active') {
    deps.log.warn(
      { teamId: envelope.team_id, eventId: envelope.event_id },
      'Slack event ignored: its workspace is not installed',
    );
    return { kind: 'ignored', reason: 'not_installed' };
  }
  const eventType = typeof envelope.event?.type === 'string' ? envelope.event.type : 'unknown';
  const now = deps.clock.now().toISOString();
  if (REVOKING_EVENTS.has(eventType)) {
    await revokeSlackInstallation(deps.db, envelope.team_id, eventType, now);
    deps.log.warn(
      { teamId: envelope.team_id, organizationId: installation.organization_id },
      `Slack ${eventType}: installation revoked`,
    );
    return { kind: 'revoked', reason: eventType };
  }
  const channel = envelope.event?.channel ?? envelope.event?.item?.channel;
  if (eventType === 'message') {
    const ignored = await whyMessageIsIgnored(deps, installation.organization_id, channel);
    if (ignored) {
      deps.log.info({ eventId: envelope.event_id, channelId: channel }, `Slack message ignored: ${ignored}`);
      return { kind: 'ignored', reason: ignored };
    }
  }
  const eventSeconds = eventSecondsOf(envelope) ?? deps.clock.now().getTime() / 1000;
  const kept = await insertSlackEventOnce(deps.db, {
    event_id: envelope.event_id,
    organization_id: installation.organization_id,
    team_id: envelope.team_id,
    event_type: eventType,
    channel_id: typeof channel === 'string' ? channel : null,
    payload: rawBody,
    event_time: new Date(eventSeconds * 1000).toISOString(),
    status: 'pending',
    received_at: now,
  });
  if (!kept) {
    deps.log.info({ eventId: envelope.event_id }, 'Slack event already kept (a retry or a replay): ignored');
    return { kind: 'duplicate' };
  }
  return { kind: 'kept' };
}

/**
 * Why a message is not kept at all: only customer and triage channels that are still connected are
 * read, so the chatter of every other channel the bot is in is never written.
 */
async function whyMessageIsIgnored(deps: SlackDeps, organizationId: string, channel: unknown): Promise<string | null> {
  if (typeof channel !== 'string') {
    return 'no_channel';
  }
  const settings = await findSlackChannel(deps.db, organizationId, channel);
  if (!settings || settings.kind === 'ignored') {
    return 'channel_ignored';
  }
  return settings.status === 'connected' ? null : 'channel_disconnected';
}

/**
 * When the event happened, as finely as Slack says: the event's own `event_ts` (to the millisecond,
 * so one channel's messages of the same second keep their order), else the envelope's `event_time`
 * (whole seconds).
 */
function eventSecondsOf(envelope: SlackEnvelope): number | null {
  const precise = typeof envelope.event?.event_ts === 'string' ? Number(envelope.event.event_ts) : Number.NaN;
  if (Number.isFinite(precise) && precise > 0) {
    return precise;
  }
  return typeof envelope.event_time === 'number' ? envelope.event_time : null;
}
