import type { Config } from '../../config.js';
import type { ReceivedFile } from '../../platform/attachments/attachment.service.js';

/** A file shared with a message, as the event describes it. */
export interface SlackFile {
  id?: string;
  name?: string;
  title?: string;
  mimetype?: string;
  size?: number;
  url_private?: string;
  url_private_download?: string;
}

export interface DownloadedFiles {
  files: ReceivedFile[];
  /** What was left out, in words for the comment ("report.pdf: over the 25 MB attachment limit"). */
  skipped: string[];
}

const DOWNLOAD_TIMEOUT_MS = 30_000;

/**
 * Slack serves a file's bytes only with the bot token: it is sent only to Slack's own hosts (or
 * to `SLACK_API_URL`'s, for tests and air-gapped installs), never to a URL an event merely names.
 */
function isSlackFileUrl(url: URL, config: Pick<Config, 'SLACK_API_URL'>): boolean {
  const api = new URL(config.SLACK_API_URL);
  if (url.origin === api.origin) {
    return true;
  }
  return url.protocol === 'https:' && (url.hostname === 'files.slack.com' || url.hostname.endsWith('.slack.com'));
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/**
 * The files of a message, downloaded with the bot token: one over `ATTACHMENT_MAX_BYTES` (by its
 * announced size, or its bytes) is skipped and said, as email does; one Slack will not serve is
 * skipped and said too, so the message is still filed.
 */
export async function downloadSlackFiles(
  config: Pick<Config, 'SLACK_API_URL' | 'ATTACHMENT_MAX_BYTES'>,
  token: string,
  files: readonly SlackFile[],
): Promise<DownloadedFiles> {
  const result: DownloadedFiles = { files: [], skipped: [] };
  const limit = `over the ${megabytes(config.ATTACHMENT_MAX_BYTES)} attachment limit`;
  for (const file of files) {
    const name = file.name || file.title || file.id || 'file';
    if ((file.size ?? 0) > config.ATTACHMENT_MAX_BYTES) {
      result.skipped.push(`${name}: ${limit}`);
      continue;
    }
    const address = file.url_private_download ?? file.url_private;
    const url = address ? URL.parse(address) : null;
    if (!url || !isSlackFileUrl(url, config)) {
      result.skipped.push(`${name}: not served by Slack`);
      continue;
    }
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${token}` },
      redirect: 'error',
      signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
    }).catch(() => null);
    if (!response?.ok) {
      result.skipped.push(`${name}: Slack did not serve it`);
      continue;
    }
    const data = Buffer.from(await response.arrayBuffer());
    if (data.length > config.ATTACHMENT_MAX_BYTES) {
      result.skipped.push(`${name}: ${limit}`);
      continue;
    }
    result.files.push({ fileName: name, contentType: file.mimetype || 'application/octet-stream', data });
  }
  return result;
}
