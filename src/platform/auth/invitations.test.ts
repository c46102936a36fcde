import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asBrowser, browserOf, signInBrowser } from '../../../test/browser-session.js';
import { DIALECTS } from '../../../test/dialects.js';
import { makeOrganization, makeUser, type TestOrganization } from '../../../test/factories.js';
import { buildTestApp, serverProcesses, TEST_NOW, type TestApp } from '../../../test/harness.js';
import { decodeQuotedPrintable, startSmtp } from '../../../test/smtp.js';
import { createOutboxWorker } from '../../delivery/outbox/outbox.worker.js';

const HOUR = 60 * 60_000;
const NEW_PASSWORD = 'a long and private passphrase';

interface Mail {
  to: string;
  subject: string;
  body: string;
}

describe.each(DIALECTS)('invitations and password resets on %s', (dialect) => {
  let harness: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let acme: TestOrganization;

  beforeAll(async () => {
    smtp = await startSmtp();
    harness = await buildTestApp(dialect, {
      env: { SMTP_URL: smtp.url, SIGN_IN_FAILURES_PER_ADDRESS: '50', SIGN_IN_FAILURES_PER_ACCOUNT: '4' },
    });
    acme = await makeOrganization(harness, { name: 'Acme', adminEmail: `admin-${dialect}@acme.test` });
  });
  afterEach(() => harness.clock.set(TEST_NOW));
  afterAll(async () => {
    await harness.close();
    await smtp.close();
  });

  /** Sends what the outbox holds to the loopback SMTP server; answers the mail it received. */
  async function deliverMail(): Promise<Mail[]> {
    const worker = createOutboxWorker({
      db: harness.db,
      clock: harness.clock,
      config: harness.config,
      log: pino({ level: 'silent' }),
    });
    smtp.messages.length = 0;
    for (let pass = 0; pass < 10 && (await worker.runOnce()) > 0; pass++) {
      // Until the outbox is empty.
    }
    await worker.stop();
    return smtp.messages.flatMap((message) => {
      const subject = /^Subject: (.*)$/m.exec(message.raw)?.[1] ?? '';
      return message.to.map((to) => ({ to, subject, body: decodeQuotedPrintable(message.raw) }));
    });
  }
  const tokenIn = (mail: Mail | undefined, page: 'accept-invite' | 'reset-password') => {
    const match = new RegExp(`http://localhost:3000/app/${page}\\?token=([A-Za-z0-9_-]{43})`).exec(mail?.body ?? '');
    if (!match?.[1]) {
      throw new Error(`no ${page} link in ${mail?.body}`);
    }
    return match[1];
  };
  const invite = (userId: string, headers: Record<string, string> = acme.headers) =>
    harness.app.inject({ method: 'POST', url: `/v1/users/${userId}/invite`, headers });
  const accept = (token: string, password: string, headers: Record<string, string> = {}) =>
    harness.app.inject({ method: 'POST', url: '/v1/auth/invitations/accept', payload: { token, password }, headers });
  const requestReset = (email: string) =>
    harness.app.inject({ method: 'POST', url: '/v1/auth/password-reset', payload: { email } });
  const confirmReset = (token: string, password: string) =>
    harness.app.inject({ method: 'POST', url: '/v1/auth/password-reset/confirm', payload: { token, password } });
  const passwordOf = async (userId: string) =>
    (await harness.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow())
      .password_hash;
  const sessionsOf = async (userId: string) =>
    (await harness.db.selectFrom('user_sessions').select('id').where('user_id', '=', userId).execute()).length;
  const outboxSize = async () => (await harness.db.selectFrom('email_outbox').select('id').execute()).length;
  const login = (email: string, password: string) =>
    harness.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } });

  /** A member invited by the admin, with the token of the emailed link. */
  async function invited(email: string) {
    const user = await makeUser(harness, acme.organizationId, { name: `Invitee ${email}`, email });
    const response = await invite(user.userId);
    expect(response.statusCode, response.body).toBe(201);
    const mails = (await deliverMail()).filter((mail) => mail.to === email);
    expect(mails).toHaveLength(1);
    return { user, response, mail: mails[0], token: tokenIn(mails[0], 'accept-invite') };
  }

  it('an admin invites by email; the link sets a password once, signs in, and nothing is written for a refused password', async () => {
    const { user, response, mail, token } = await invited('ivy@acme.test');
    expect(response.json().data).toEqual({ userId: user.userId, email: 'ivy@acme.test', expiresAt: '2026-01-22T09:00:00.000Z' });
    expect(mail?.subject).toBe('You are invited to Acme on Switchboard');
    expect(mail?.body).toContain(`Admin `);
    const stored = await harness.db.selectFrom('user_auth_tokens').selectAll().where('user_id', '=', user.userId).execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);

    const refused: [string, string][] = [
      ['short pass', 'password must be at least 12 characters long'],
      ['123qweasdzxc', 'password is one of the most common passwords; choose another'],
      ['QWERTY123456', 'password is one of the most common passwords; choose another'],
      ['IVY@acme.test', 'password must not be your email address'],
    ];
    for (const [password, message] of refused) {
      const answer = await accept(token, password);
      expect(answer.statusCode, password).toBe(400);
      expect(answer.json().message, password).toContain(message);
    }
    expect(await passwordOf(user.userId)).toBeNull();
    expect(await sessionsOf(user.userId)).toBe(0);

    const accepted = await accept(token, NEW_PASSWORD);
    const browser = browserOf(accepted);
    expect(accepted.json().data).toMatchObject({
      user: { id: user.userId },
      session: { current: true },
      csrfToken: browser.csrfToken,
    });
    expect((await asBrowser(harness.app, browser, { url: '/v1/users/me' })).json().data.user.id).toBe(user.userId);
    expect(await passwordOf(user.userId)).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect((await login('ivy@acme.test', NEW_PASSWORD)).statusCode).toBe(200);

    const again = await accept(token, 'yet another long passphrase');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ statusCode: 400, message: 'This link was already used', error: 'Bad Request' });
    expect((await login('ivy@acme.test', NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('a newer invitation replaces the older link, and a link expires after 7 days', async () => {
    const { user, token: first } = await invited('jay@acme.test');
    expect((await invite(user.userId)).statusCode).toBe(201);
    const second = tokenIn(
      (await deliverMail()).find((mail) => mail.to === 'jay@acme.test'),
      'accept-invite',
    );
    const replaced = await accept(first, NEW_PASSWORD);
    expect(replaced.json()).toEqual({
      statusCode: 400,
      message: 'This link is not valid: it may have been replaced by a newer one',
      error: 'Bad Request',
    });

    harness.clock.advance(7 * 24 * HOUR);
    const expired = await accept(second, NEW_PASSWORD);
    expect(expired.json()).toEqual({
      statusCode: 400,
      message: 'This link has expired: ask for a new one',
      error: 'Bad Request',
    });
    expect(await passwordOf(user.userId)).toBeNull();
    for (const token of ['not-a-token', 'A'.repeat(43)]) {
      expect((await accept(token, NEW_PASSWORD)).statusCode).toBe(400);
    }
  });

  it('refuses an invitation from a member (403), of another organization’s or an unknown user (404), of a disabled user (409), queueing nothing', async () => {
    const member = await makeUser(harness, acme.organizationId, { email: 'kim@acme.test' });
    const globex = await makeOrganization(harness, { name: 'Globex' });
    const outsider = await makeUser(harness, globex.organizationId, { email: 'lee@globex.test' });
    const disabled = await makeUser(harness, acme.organizationId, { email: 'max@acme.test' });
    expect(
      (
        await harness.app.inject({
          method: 'PATCH',
          url: `/v1/users/${disabled.userId}`,
          headers: acme.headers,
          payload: { disabled: true },
        })
      ).statusCode,
    ).toBe(200);
    await deliverMail();
    const before = await outboxSize();

    expect((await invite(member.userId, member.headers)).json()).toEqual({
      statusCode: 403,
      message: 'User does not have access to this resource!',
      error: 'Forbidden',
    });
    expect((await invite(outsider.userId)).json()).toEqual({ statusCode: 404, message: 'User not found!', error: 'Not Found' });
    expect((await invite('01J00000000000000000000000')).statusCode).toBe(404);
    expect((await invite('not-a-ulid')).statusCode).toBe(400);
    const refused = await invite(disabled.userId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This user is disabled: enable them before inviting them');
    expect((await harness.app.inject({ method: 'POST', url: `/v1/users/${member.userId}/invite` })).statusCode).toBe(401);
    expect(await outboxSize()).toBe(before);
    expect(
      await harness.db
        .selectFrom('user_auth_tokens')
        .select('id')
        .where('user_id', 'in', [member.userId, outsider.userId, disabled.userId])
        .execute(),
    ).toEqual([]);
  });

  it('disabling a user voids its open link', async () => {
    const { user, token } = await invited('nia@acme.test');
    await harness.app.inject({
      method: 'PATCH',
      url: `/v1/users/${user.userId}`,
      headers: acme.headers,
      payload: { disabled: true },
    });
    expect((await accept(token, NEW_PASSWORD)).statusCode).toBe(400);
    expect(await passwordOf(user.userId)).toBeNull();
    expect(await sessionsOf(user.userId)).toBe(0);
  });

  it('resets a password by emailed link: the same answer for any address, one use, an hour, other sessions ended', async () => {
    const { user, token } = await invited('oz@acme.test');
    expect((await accept(token, NEW_PASSWORD)).statusCode).toBe(200);
    const elsewhere = await signInBrowser(harness.app, 'oz@acme.test', NEW_PASSWORD);
    const neverSignedIn = await makeUser(harness, acme.organizationId, { email: 'pat@acme.test' });

    const known = await requestReset('OZ@acme.test');
    const unknown = await requestReset('nobody@acme.test');
    const withoutPassword = await requestReset('pat@acme.test');
    for (const response of [known, unknown, withoutPassword]) {
      expect(response.statusCode).toBe(202);
      expect(Object.keys(response.json().data)).toEqual(['email']);
    }
    const mails = await deliverMail();
    expect(mails.map((mail) => mail.to)).toEqual(['oz@acme.test']);
    expect(mails[0]?.subject).toBe('Reset your Switchboard password');
    const resetToken = tokenIn(mails[0], 'reset-password');
    expect(
      await harness.db.selectFrom('user_auth_tokens').select('id').where('user_id', '=', neverSignedIn.userId).execute(),
    ).toEqual([]);

    expect((await confirmReset(resetToken, 'q1w2e3r4t5y6')).statusCode).toBe(400);
    expect((await asBrowser(harness.app, elsewhere, { url: '/v1/users/me' })).statusCode).toBe(200);
    const reset = await confirmReset(resetToken, 'a brand new passphrase');
    const browser = browserOf(reset);
    expect((await asBrowser(harness.app, elsewhere, { url: '/v1/users/me' })).statusCode).toBe(401);
    expect((await asBrowser(harness.app, browser, { url: '/v1/users/me' })).statusCode).toBe(200);
    expect(await sessionsOf(user.userId)).toBe(1);
    expect((await login('oz@acme.test', NEW_PASSWORD)).statusCode).toBe(401);
    expect((await login('oz@acme.test', 'a brand new passphrase')).statusCode).toBe(200);
    expect((await confirmReset(resetToken, 'one more new passphrase')).json().message).toBe('This link was already used');
    // An invitation's token is no reset token.
    expect((await accept(resetToken, 'one more new passphrase')).statusCode).toBe(400);

    expect((await requestReset('oz@acme.test')).statusCode).toBe(202);
    const late = tokenIn((await deliverMail())[0], 'reset-password');
    harness.clock.advance(HOUR);
    expect((await confirmReset(late, 'one more new passphrase')).json().message).toBe('This link has expired: ask for a new one');
    expect((await login('oz@acme.test', 'a brand new passphrase')).statusCode).toBe(200);
  });

  it('sends no reset link to a disabled user, and limits reset requests per address and email', async () => {
    const { user, token } = await invited('quinn@acme.test');
    expect((await accept(token, NEW_PASSWORD)).statusCode).toBe(200);
    await harness.app.inject({
      method: 'PATCH',
      url: `/v1/users/${user.userId}`,
      headers: acme.headers,
      payload: { disabled: true },
    });
    expect((await requestReset('quinn@acme.test')).statusCode).toBe(202);
    expect(await deliverMail()).toEqual([]);

    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await requestReset('rae@acme.test')).statusCode).toBe(202);
    }
    const limited = await requestReset('RAE@acme.test');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('refuses a link posted from another site', async () => {
    const { user, token } = await invited('sam@acme.test');
    expect((await accept(token, NEW_PASSWORD, { origin: 'https://evil.test' })).statusCode).toBe(403);
    expect(await passwordOf(user.userId)).toBeNull();
    expect((await accept(token, NEW_PASSWORD, { origin: 'http://localhost:3000' })).statusCode).toBe(200);
  });

  it('a link used by two requests at once (two processes on PostgreSQL) signs in exactly one', async () => {
    const { user, token } = await invited('tom@acme.test');
    const processes = await serverProcesses(harness);
    try {
      const answers = await Promise.all(
        [0, 1, 2, 3].map((index) =>
          (processes.apps[index % processes.apps.length] ?? harness.app).inject({
            method: 'POST',
            url: '/v1/auth/invitations/accept',
            payload: { token, password: `${NEW_PASSWORD} ${index}` },
          }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400, 400, 400]);
      expect(await sessionsOf(user.userId)).toBe(1);
    } finally {
      await processes.close();
    }
  });
});
