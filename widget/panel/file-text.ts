import { ApiError } from './messenger-client.js';

/** A file's size in words a visitor reads at a glance: "512 bytes", "14 KB", "2.5 MB" (1 KB = 1,024 bytes). */
export function fileSizeText(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) {
    return 'unknown size';
  }
  if (bytes < 1024) {
    return bytes === 1 ? '1 byte' : `${Math.round(bytes)} bytes`;
  }
  const units = ['KB', 'MB', 'GB'];
  // One decimal while it says something (2.5 MB), none once the number is large enough (14 KB).
  const rounded = (value: number) => (value < 10 ? Math.round(value * 10) / 10 : Math.round(value));
  let shown = bytes / 1024;
  let unit = 0;
  // Up a unit while the number would read 1024 or more once rounded (1,048,575 bytes are 1 MB, not 1024 KB).
  while (rounded(shown) >= 1024 && unit < units.length - 1) {
    shown /= 1024;
    unit++;
  }
  return `${rounded(shown)} ${units[unit]}`;
}

/** Why a file was not sent, in words, from the server's refusal. */
export function fileRefusalText(error: unknown): string {
  if (!(error instanceof ApiError)) {
    return 'The file could not be sent. Check your connection and try again.';
  }
  switch (error.status) {
    case 413:
      return 'This file is too large to send. Try a smaller file.';
    case 409:
      return 'Files can only be sent once a person has the conversation.';
    case 415:
      return 'This kind of file cannot be sent.';
    case 429:
      return 'You are sending too quickly. Wait a moment, then try again.';
    default:
      return 'The file could not be sent. Try again in a moment.';
  }
}
