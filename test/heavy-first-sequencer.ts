import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest test files, longest first (seconds each in a full run on a 2-core machine, 29 Nov
 * 2026). They start before everything else: a long file that starts last keeps its worker busy
 * while the other sits idle, which once cost 70 s of a 13-minute run. Vitest orders by its cache
 * of durations, which a fresh clone (CI) does not have, and then by size, which these files do not
 * follow. A file that becomes slow belongs here; one that is renamed or removed is simply ignored.
 */
export const HEAVY_FILES = [
  // The write routes' hostile bodies, dealt into two files (81 s as one).
  'test/fuzz-write-routes.test.ts',
  'test/fuzz-write-routes-second-half.test.ts',
  'test/serve.test.ts', // 35
  'src/db/migrations.test.ts', // 30
  'test/permissions.test.ts', // 27
  'test/rate-limits.test.ts', // 23
  'src/platform/auth/sessions.test.ts', // 21
  'test/console/inbox.console.test.ts', // 21
  'test/console/settings-teams.console.test.ts', // 21
  'src/platform/routing/routing.concurrency.test.ts', // 20
  'test/console/ticket.console.test.ts', // 19
  'test/console/settings-slack.console.test.ts', // 19
  'src/platform/notifications/notifications.test.ts', // 19
  'src/platform/auth/invitations.test.ts', // 19
  'test/console/settings-channels.console.test.ts', // 16
  'test/site/help-center-accessibility.browser.test.ts', // 16
  'src/channels/email/imap-poller.test.ts', // 16
  'src/channels/email/smtp-receiver.test.ts', // 15
  'test/widget/messenger-chat.browser.test.ts', // 15
  // Added after the measured run: the messenger's handoff flows (about 30 s and 16 s alone).
  'test/widget/messenger-handoff.browser.test.ts',
  'test/console/ticket-chat.console.test.ts',
  // The Knowledge and AI agents pages (issue 36), seconds in the run of 29 Nov 2026, 22:33.
  'test/console/knowledge-articles.console.test.ts', // 40
  'test/console/knowledge-collections.console.test.ts', // 32
  'test/console/agents-playground.console.test.ts', // 24
  'test/console/agents-tools.console.test.ts', // 23
  'test/console/agents-runs.console.test.ts', // 20
];

/** The listed heavy files first, in their order; every other file after them in Vitest's own order. */
export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = HEAVY_FILES.indexOf(relative(this.ctx.config.root, file.moduleId));
      return index === -1 ? HEAVY_FILES.length : index;
    };
    // Array.prototype.sort is stable: the unlisted files keep Vitest's order among themselves.
    return ordered.sort((a, b) => rank(a) - rank(b));
  }
}
