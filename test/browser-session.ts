import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** What a browser keeps after signing in: the two cookies, as it sends them back. */
export interface Browser {
  sessionToken: string;
  csrfToken: string;
  sessionId: string;
  /** The `Cookie` header it sends. */
  cookie: string;
}

/** The browser a successful sign-in (or accepted link) answer leaves behind. */
export function browserOf(response: LightMyRequestResponse): Browser {
  expect(response.statusCode, response.body).toBe(200);
  const session = response.cookies.find((cookie) => cookie.name === 'sb_session');
  const csrf = response.cookies.find((cookie) => cookie.name === 'sb_csrf');
  if (!session?.value || !csrf?.value) {
    throw new Error(`no session cookies in ${JSON.stringify(response.headers['set-cookie'])}`);
  }
  return {
    sessionToken: session.value,
    csrfToken: csrf.value,
    sessionId: response.json().data.session.id,
    cookie: `sb_session=${session.value}; sb_csrf=${csrf.value}`,
  };
}

/** Signs in through `POST /v1/auth/login` and expects it to work. */
export async function signInBrowser(
  app: FastifyInstance,
  email: string,
  password: string,
  options: { remoteAddress?: string; userAgent?: string } = {},
): Promise<Browser> {
  const response = await app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    payload: { email, password },
    remoteAddress: options.remoteAddress,
    headers: options.userAgent ? { 'user-agent': options.userAgent } : {},
  });
  return browserOf(response);
}

/** A request as the console makes it: the cookies, and the CSRF header on writes. */
export function asBrowser(
  app: FastifyInstance,
  browser: Browser,
  request: Omit<InjectOptions, 'headers'> & { headers?: Record<string, string> },
) {
  return app.inject({
    ...request,
    headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrfToken, ...request.headers },
  } as InjectOptions);
}
