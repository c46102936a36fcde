import type { Browser, Locator } from 'playwright-core';
import { decodeQuotedPrintable } from '../smtp.js';
import { type ConsolePage, openConsole } from './browser.js';
import type { ConsoleServer } from './console-server.js';

/** A password that passes the API's checks (long, not a common one). */
export const AGENT_PASSWORD = 'copper-meadow-lantern-73';

/** Polls `find` until it answers something, or fails naming `what`. */
export async function until<T>(find: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) {
      return found;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Presses Enter on a button once it is enabled: move buttons wait while the move before is on its
 * way, and the API can hold that move before the page has its answer.
 */
export async function pressWhenEnabled(button: Locator): Promise<void> {
  await until(async () => ((await button.isEnabled()) ? true : undefined), 'the button enabled');
  await button.press('Enter');
}

export interface Agent {
  id: string;
  name: string;
  email: string;
}

/**
 * A person who can sign in, made as an admin makes one: created through the API, invited by email,
 * the emailed link's token accepted with a password (the console's own page for it is tested by
 * sign-in.console.test.ts).
 */
export async function inviteAgent(
  server: ConsoleServer,
  person: { name: string; email: string; userType?: 'ORG_ADMIN' | 'ORG_MEMBER' },
): Promise<Agent> {
  const user = await server.call<Agent>('POST', '/v1/users', person);
  await server.call('POST', `/v1/users/${user.id}/invite`);
  const invitation = await until(
    () =>
      server.mail.find(
        (message) => message.to.includes(person.email) && /accept-invite/.test(decodeQuotedPrintable(message.raw)),
      ),
    `the invitation of ${person.email}`,
  );
  const token = /accept-invite\?token=([\w-]+)/.exec(decodeQuotedPrintable(invitation.raw))?.[1];
  if (!token) {
    throw new Error('the invitation holds no link');
  }
  const accepted = await fetch(`${server.origin}/v1/auth/invitations/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({ token, password: AGENT_PASSWORD }),
  });
  if (!accepted.ok) {
    throw new Error(`accepting the invitation answered ${accepted.status}: ${await accepted.text()}`);
  }
  return user;
}

/** Fills the sign-in form and waits for the signed-in shell's top bar (the views rail is a drawer on phones). */
export async function signInThroughForm(console: ConsolePage, email: string): Promise<void> {
  const { page } = console;
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(AGENT_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: /^Account menu/ }).waitFor();
}

/** A fresh browser profile signed in as `agent` through the sign-in page, on the inbox. */
export async function openSignedIn(
  browser: Browser,
  server: ConsoleServer,
  agent: Agent,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<ConsolePage> {
  const console = await openConsole(browser, server.origin, options);
  await console.page.goto('/app/sign-in');
  await signInThroughForm(console, agent.email);
  return console;
}

/** An API key of `agent` (made with the admin key), to act as them from the test: list and end their sessions. */
export async function apiKeyOf(server: ConsoleServer, agent: Agent): Promise<string> {
  return (await server.call<{ apiKey: string }>('POST', `/v1/users/${agent.id}/api-keys`)).apiKey;
}

/** Ends every browser session of the agent, as "sign out everywhere" would: `DELETE /v1/auth/sessions/{id}` with the agent's own key. */
export async function revokeSessionsOf(server: ConsoleServer, apiKey: string): Promise<number> {
  const headers = { 'x-api-key': apiKey };
  const listed = await fetch(`${server.origin}/v1/auth/sessions`, { headers });
  const sessions = ((await listed.json()) as { data: { id: string }[] }).data;
  for (const session of sessions) {
    const revoked = await fetch(`${server.origin}/v1/auth/sessions/${session.id}`, { method: 'DELETE', headers });
    if (!revoked.ok) {
      throw new Error(`revoking a session answered ${revoked.status}`);
    }
  }
  return sessions.length;
}
