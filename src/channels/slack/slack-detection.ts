import type { SlackChannelRow } from './slack-channel.repository.js';
import { decideByModel, type ModelCaller } from './slack-detection-ai.js';
import { type DetectionVerdict, decideByRules, detectionRulesOf } from './slack-detection-rules.js';

/** A stored decision: the mode that took it (`ai` falls back to the rules, and says so), the verdict and why. */
export interface DetectionDecision extends DetectionVerdict {
  mode: 'all' | 'rules' | 'ai';
}

/**
 * Whether a customer's message (with the ones grouped into it) is a request, by the channel's
 * mode: `all` takes every candidate, `rules` reads keywords, questions, mentions and chatter, `ai`
 * asks the organization's model and lets the rules decide when it cannot answer.
 */
export async function decideRequest(
  caller: ModelCaller,
  channel: SlackChannelRow,
  text: string,
  botUserId: string,
): Promise<DetectionDecision> {
  if (channel.detection_mode === 'all') {
    return { mode: 'all', isRequest: true, reason: 'every message of the channel is a request (mode all)' };
  }
  const byRules = decideByRules(text, detectionRulesOf(channel.detection_rules), botUserId);
  if (channel.detection_mode === 'rules') {
    return { mode: 'rules', ...byRules };
  }
  const byModel = await decideByModel(caller, channel.organization_id, text);
  if ('verdict' in byModel) {
    return { mode: 'ai', ...byModel.verdict };
  }
  return { mode: 'ai', isRequest: byRules.isRequest, reason: `rules (${byModel.failed}): ${byRules.reason}` };
}
