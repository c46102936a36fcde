import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../test/console/browser.js';
import { freePort } from '../test/free-port.js';
import { shootHelpCenter } from './screenshots-help-center.js';
import { shootSettings } from './screenshots-settings.js';
import { shootStudio } from './screenshots-studio.js';
import { shootWidget } from './screenshots-widget.js';

/**
 * `npm run screenshots`: the README's pictures, taken from the running app. A demo organization is
 * seeded by `switchboard demo seed` into a fresh SQLite folder, `switchboard serve` serves it, and
 * the system Chromium signs in as the demo agent and photographs the sign-in page, the inbox and
 * a ticket (plus the inbox in the dark theme and a ticket on a phone), then, as the demo
 * organization's admin, the main settings pages, the public help center, and last the messenger
 * on a vendor's page, the reports page, and the knowledge and AI studio pages (the article editor,
 * an agent's playground and its knowledge gaps), into docs/screenshots/.
 */
const OUT_DIR = join('docs', 'screenshots');
const PASSWORD = 'lumen-demo-screens-2026';
const DEMO_EMAIL = 'ana@lumen-demo.example';
const DEMO_TICKET = 'Cannot sign in after password reset';

async function waitUntilServing(origin: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) {
      throw new Error(`switchboard serve exited with ${child.exitCode}`);
    }
    try {
      if ((await fetch(`${origin}/readyz`)).ok) {
        return;
      }
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${origin} did not answer`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-screenshots-'));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_BASE_URL: origin,
  LOG_LEVEL: 'warn',
  // The messenger's pictures answer with a model server on loopback.
  OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
};
execFileSync(process.execPath, ['bin/switchboard.js', 'demo', 'seed', '--password', PASSWORD], { env, stdio: 'inherit' });
const server = spawn(process.execPath, ['bin/switchboard.js', 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
const browser = await launchChromium();
try {
  await waitUntilServing(origin, server);
  mkdirSync(OUT_DIR, { recursive: true });
  const shoot = async (name: string, page: import('playwright-core').Page) => {
    // Let fonts, transitions and the live stream's first state settle.
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(OUT_DIR, `${name}.png`) });
    console.log(`wrote ${join(OUT_DIR, `${name}.png`)}`);
  };

  for (const variant of [
    { suffix: '', viewport: { width: 1280, height: 800 }, colorScheme: 'light' as const },
    { suffix: '-dark', viewport: { width: 1280, height: 800 }, colorScheme: 'dark' as const },
    { suffix: '-phone', viewport: { width: 390, height: 844 }, colorScheme: 'light' as const },
  ]) {
    const context = await browser.newContext({ viewport: variant.viewport, colorScheme: variant.colorScheme, baseURL: origin });
    const page = await context.newPage();
    await page.goto('/app/sign-in');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    if (variant.suffix === '') {
      await shoot('sign-in', page);
    }
    await page.getByLabel('Email').fill(DEMO_EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const ticketLink = page.getByText(DEMO_TICKET).first();
    await ticketLink.waitFor();
    if (variant.suffix !== '-phone') {
      // The whole desk rather than the agent's own three: the "All open" view of the rail.
      await page
        .getByRole('navigation', { name: 'Views' })
        .getByRole('link', { name: /All open/ })
        .click();
      await page.getByText('Printer shows offline in the dashboard').first().waitFor();
    }
    await shoot(`inbox${variant.suffix}`, page);
    await ticketLink.click();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await shoot(`ticket${variant.suffix}`, page);
    await context.close();
  }
  await shootSettings(browser, origin, shoot);
  const { api, helpCenter } = await shootHelpCenter(browser, origin, shoot);
  const signIn = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: origin });
    const page = await context.newPage();
    await page.goto('/app/sign-in');
    await page.getByLabel('Email').fill(DEMO_EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(DEMO_TICKET).first().waitFor();
    return page;
  };
  await shootWidget(browser, origin, api, helpCenter, shoot, signIn);
  // The morning reports: the demo's three weeks of tickets, by day.
  const reports = await signIn();
  await reports.getByRole('link', { name: 'Reports' }).click();
  await reports.getByRole('img', { name: /^Chart of Volume/ }).waitFor();
  await shoot('reports', reports);
  await reports.context().close();
  // Last: its agent hands off tickets of the demo's Support team.
  await shootStudio(origin, api, helpCenter, shoot, signIn);
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
