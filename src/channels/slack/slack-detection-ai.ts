import type { Kysely } from 'kysely';
import { describeModelError, languageModelOf, loadAiSdk } from '../../agent-studio/model-providers/model-client.js';
import { organizationModelEndpoint } from '../../agent-studio/model-providers/model-provider.lookup.js';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import type { FetchLike } from '../../lib/guarded-fetch.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { DetectionVerdict } from './slack-detection-rules.js';

/** The `ai` mode: the organization's model provider classifies; any failure is said, and the rules decide. */

export interface ModelCaller {
  db: Kysely<DB>;
  config: Config;
  box: SecretBox;
  /** Calls to providers users configured go through the outbound guard. */
  fetch: FetchLike;
}

const CLASSIFY_TIMEOUT_MS = 20_000;
const REASON_MAX = 300;
const TEXT_MAX = 4_000;

const INSTRUCTIONS = [
  'You triage messages customers post in a shared Slack support channel.',
  'Decide whether the message is a support request that needs an answer or action from the support team',
  '(a question, a problem, a bug, a request for help or a change), or chatter (thanks, greetings, acknowledgements, jokes).',
  'Answer with JSON only, no other text: {"isRequest": true or false, "reason": "one short line saying why"}',
].join(' ');

/** The verdict inside a model's answer: the JSON object it wrote, perhaps in a code fence or among words. */
export function readModelVerdict(answer: string): DetectionVerdict | null {
  const json = /\{[\s\S]*\}/.exec(answer)?.[0];
  if (!json) {
    return null;
  }
  try {
    const parsed = JSON.parse(json) as { isRequest?: unknown; reason?: unknown };
    if (typeof parsed.isRequest !== 'boolean') {
      return null;
    }
    const reason = typeof parsed.reason === 'string' ? parsed.reason.replace(/\s+/g, ' ').trim().slice(0, REASON_MAX) : '';
    return { isRequest: parsed.isRequest, reason: reason || (parsed.isRequest ? 'a request' : 'not a request') };
  } catch {
    return null;
  }
}

/**
 * Asks the organization's model whether `text` is a request. Answers the verdict (its reason
 * prefixed "model: "), or why no verdict came (no provider, an error, an unreadable answer).
 */
export async function decideByModel(
  caller: ModelCaller,
  organizationId: string,
  text: string,
): Promise<{ verdict: DetectionVerdict } | { failed: string }> {
  const endpoint = await organizationModelEndpoint(caller.db, caller.config, organizationId, caller);
  if (!endpoint) {
    return { failed: 'no model provider' };
  }
  const sdk = await loadAiSdk();
  try {
    const result = await sdk.ai.generateText({
      model: await languageModelOf(endpoint, endpoint.defaultModel),
      system: INSTRUCTIONS,
      prompt: text.slice(0, TEXT_MAX),
      maxOutputTokens: 200,
      maxRetries: 1,
      abortSignal: AbortSignal.timeout(CLASSIFY_TIMEOUT_MS),
    });
    const verdict = readModelVerdict(result.text);
    return verdict
      ? { verdict: { ...verdict, reason: `model: ${verdict.reason}` } }
      : { failed: 'the model answered no verdict' };
  } catch (error) {
    return { failed: describeModelError(sdk, error) };
  }
}
