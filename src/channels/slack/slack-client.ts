import { WebClient } from '@slack/web-api';
import type { Config } from '../../config.js';

/** How long one Web API call may take before it counts as failed. */
const CALL_TIMEOUT_MS = 10_000;

/**
 * Slack's official Web API client, pointed at `SLACK_API_URL`. It waits out `ratelimited` answers
 * as their `Retry-After` says and retries failed calls a few times; `token` is a bot token, or none
 * for `oauth.v2.access`.
 */
export function slackClient(config: Pick<Config, 'SLACK_API_URL'>, token?: string): WebClient {
  return new WebClient(token, {
    slackApiUrl: config.SLACK_API_URL,
    // Never a method name that is a whole URL: every call goes to SLACK_API_URL.
    allowAbsoluteUrls: false,
    timeout: CALL_TIMEOUT_MS,
    retryConfig: { retries: 3, factor: 2, minTimeout: 200, maxTimeout: 5_000 },
  });
}
