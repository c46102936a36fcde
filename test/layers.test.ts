import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const depcruise = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/** A few modules of a tree shaped like src/, each importing what `imports` names. */
async function writeTree(base: string, files: Record<string, string[]>): Promise<void> {
  await writeFile(join(base, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', strict: true } }));
  for (const [file, imports] of Object.entries(files)) {
    await mkdir(dirname(join(base, file)), { recursive: true });
    const lines = imports.map((target, index) => {
      let path = relative(dirname(file), target).replace(/\.ts$/, '.js');
      path = path.startsWith('.') ? path : `./${path}`;
      return `import { value as value${index} } from '${path}';\nexport const use${index} = value${index};`;
    });
    await writeFile(join(base, file), `${lines.join('\n')}\nexport const value = 1;\n`);
  }
}

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** The rule names the project's layer check reports on a tree, by "from -> to". */
async function violationsOf(base: string): Promise<Map<string, string[]>> {
  const args = [
    depcruise,
    'src',
    'web/src',
    'widget',
    '--config',
    join(root, '.dependency-cruiser.cjs'),
    '--output-type',
    'json',
  ];
  const output = await run(process.execPath, args, { cwd: base, maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
  );
  const result = JSON.parse(output.stdout) as { summary: { violations: Violation[] } };
  const byImport = new Map<string, string[]>();
  for (const violation of result.summary.violations) {
    const key = `${violation.from} -> ${violation.to}`;
    byImport.set(key, [...(byImport.get(key) ?? []), violation.rule.name]);
  }
  return byImport;
}

describe('the layer check', () => {
  let base: string;
  let found: Map<string, string[]>;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'switchboard-layers-'));
    await writeTree(base, {
      'src/lib/clock.ts': ['src/platform/tickets/ticket.service.ts'],
      'src/db/dialect.ts': ['src/lib/clock.ts'],
      'src/delivery/outbox/outbox.service.ts': ['src/platform/tickets/ticket.service.ts'],
      'src/platform/tickets/ticket.service.ts': ['src/platform/users/user.service.ts', 'src/lib/clock.ts'],
      'src/platform/tickets/ticket.repository.ts': [],
      'src/platform/users/user.service.ts': ['src/platform/users/user.repository.ts'],
      'src/platform/users/user.repository.ts': [],
      'src/platform/teams/team.service.ts': [
        'src/platform/tickets/ticket.repository.ts',
        'src/channels/email/inbound.service.ts',
      ],
      'src/platform/views/view.service.ts': ['src/http/errors.ts'],
      'src/platform/macros/macro.service.ts': ['src/platform/notes/note.service.ts'],
      'src/platform/notes/note.service.ts': ['src/platform/macros/macro.service.ts'],
      'src/channels/email/inbound.service.ts': ['src/platform/users/user.repository.ts', 'src/platform/users/user.service.ts'],
      'src/http/errors.ts': ['src/platform/users/user.service.ts'],
      'src/shared/sorts.ts': ['src/lib/clock.ts'],
      'web/src/inbox/InboxPage.ts': ['web/src/ticket/TicketPage.ts', 'web/src/ui/Button.ts', 'web/src/auth/session.ts'],
      'web/src/ticket/TicketPage.ts': ['web/src/auth/SignInPage.ts', 'src/shared/sorts.ts'],
      'web/src/auth/session.ts': [],
      'web/src/auth/SignInPage.ts': [],
      'web/src/ui/Button.ts': ['web/src/ticket/TicketPage.ts'],
      'web/src/shell/AppShell.ts': ['web/src/inbox/InboxPage.ts', 'web/src/ticket/TicketPage.ts'],
      'widget/loader/loader.ts': ['widget/panel/App.ts', 'widget/shared/messages.ts'],
      'widget/panel/App.ts': ['src/lib/clock.ts', 'src/shared/sorts.ts', 'widget/shared/messages.ts', 'web/src/ui/Button.ts'],
      'widget/shared/messages.ts': [],
      'widget/shared/colors.ts': ['widget/loader/loader.ts'],
      'src/channels/messenger/widget-assets.plugin.ts': ['widget/loader/loader.ts'],
    });
    found = await violationsOf(base);
  }, 60_000);

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it.each([
    ['src/lib/clock.ts -> src/platform/tickets/ticket.service.ts', 'lib-is-the-bottom'],
    ['src/delivery/outbox/outbox.service.ts -> src/platform/tickets/ticket.service.ts', 'delivery-below-domain'],
    [
      'src/platform/teams/team.service.ts -> src/platform/tickets/ticket.repository.ts',
      'no-reach-into-another-feature-repository',
    ],
    ['src/platform/teams/team.service.ts -> src/channels/email/inbound.service.ts', 'domain-below-channels'],
    ['src/platform/views/view.service.ts -> src/http/errors.ts', 'services-know-no-http'],
    ['src/platform/macros/macro.service.ts -> src/platform/notes/note.service.ts', 'no-cycle'],
    [
      'src/channels/email/inbound.service.ts -> src/platform/users/user.repository.ts',
      'no-reach-into-another-feature-repository',
    ],
    ['src/http/errors.ts -> src/platform/users/user.service.ts', 'http-imports-no-feature'],
    ['src/shared/sorts.ts -> src/lib/clock.ts', 'shared-imports-nothing-server-only'],
    ['web/src/inbox/InboxPage.ts -> web/src/ticket/TicketPage.ts', 'console-areas-stay-apart'],
    ['web/src/ticket/TicketPage.ts -> web/src/auth/SignInPage.ts', 'console-areas-stay-apart'],
    ['web/src/ui/Button.ts -> web/src/ticket/TicketPage.ts', 'console-shared-pieces-import-no-area'],
    ['widget/panel/App.ts -> src/lib/clock.ts', 'widget-imports-only-widget-and-shared'],
    ['widget/panel/App.ts -> web/src/ui/Button.ts', 'widget-imports-only-widget-and-shared'],
    ['widget/loader/loader.ts -> widget/panel/App.ts', 'widget-halves-stay-apart'],
    ['widget/shared/colors.ts -> widget/loader/loader.ts', 'widget-shared-is-a-leaf'],
    ['src/channels/messenger/widget-assets.plugin.ts -> widget/loader/loader.ts', 'server-imports-no-widget'],
  ])('refuses %s (%s)', (edge, rule) => {
    expect(found.get(edge)).toContain(rule);
  });

  it('lets a feature use another through its service, its own repository, and lib/, a console area the shared pieces, and the widget its shared messages', () => {
    for (const edge of [
      'src/platform/tickets/ticket.service.ts -> src/platform/users/user.service.ts',
      'src/platform/users/user.service.ts -> src/platform/users/user.repository.ts',
      'src/platform/tickets/ticket.service.ts -> src/lib/clock.ts',
      'src/db/dialect.ts -> src/lib/clock.ts',
      'src/channels/email/inbound.service.ts -> src/platform/users/user.service.ts',
      'web/src/inbox/InboxPage.ts -> web/src/ui/Button.ts',
      'web/src/inbox/InboxPage.ts -> web/src/auth/session.ts',
      'web/src/ticket/TicketPage.ts -> src/shared/sorts.ts',
      'web/src/shell/AppShell.ts -> web/src/inbox/InboxPage.ts',
      'widget/loader/loader.ts -> widget/shared/messages.ts',
      'widget/panel/App.ts -> widget/shared/messages.ts',
      'widget/panel/App.ts -> src/shared/sorts.ts',
    ]) {
      expect(found.get(edge), edge).toBeUndefined();
    }
  });
});

/** The generated API clients' types. */
const GENERATED = new Set(['web/src/api/platform.ts', 'web/src/api/help-center.ts']);

/** Hand-written sources: not tests, not the generated API clients, not migrations (frozen once landed). */
async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('src/db/migrations/') && !GENERATED.has(file));
}

describe('source sizes', () => {
  it('keeps every hand-written source file under 500 lines (functions are held to 100 by the linter)', async () => {
    const files = [...(await sourceFiles('src')), ...(await sourceFiles('web/src')), ...(await sourceFiles('widget'))];
    const tooLong: string[] = [];
    for (const file of files) {
      const lines = (await readFile(join(root, file), 'utf8')).split('\n').length - 1;
      if (lines > 500) {
        tooLong.push(`${file}: ${lines} lines`);
      }
    }
    expect(tooLong).toEqual([]);
  });
});
