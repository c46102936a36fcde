import createClient, { type Middleware } from 'openapi-fetch';
import type { paths as HelpCenterPaths } from './help-center';
import type { paths } from './platform';

/** What a failed request shows: the API's own message, and its status for callers that branch on it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const CSRF_COOKIE = 'sb_csrf';
const CSRF_HEADER = 'x-csrf-token';
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The double-submit CSRF token: the API sets the cookie at sign-in, and a write echoes it in a header. */
export function csrfToken(): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === CSRF_COOKIE) {
      return decodeURIComponent(value.join('='));
    }
  }
  return undefined;
}

type SignedOutListener = () => void;
const signedOutListeners = new Set<SignedOutListener>();

/** Called when the API answers 401: the session ended or expired, and the app goes back to sign-in. */
export function onSignedOut(listener: SignedOutListener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/** The session's CSRF header on writes, and a 401 sent back to sign-in: every API the console calls uses it. */
export const sessionMiddleware: Middleware = {
  onRequest({ request }) {
    if (WRITES.has(request.method)) {
      const token = csrfToken();
      if (token) {
        request.headers.set(CSRF_HEADER, token);
      }
    }
    return request;
  },
  onResponse({ response, request }) {
    // Sign-in itself answers 401-free errors; any other 401 means the session is gone.
    if (response.status === 401 && !new URL(request.url).pathname.startsWith('/v1/auth/login')) {
      for (const listener of signedOutListeners) {
        listener();
      }
    }
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(sessionMiddleware);

/** The help-center API (help centers, collections, articles, tags), served at the root beside the platform. */
export const helpCenterApi = createClient<HelpCenterPaths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
helpCenterApi.use(sessionMiddleware);

/** The message of an error body in either of the platform's shapes, or the status line. */
export function messageOf(body: unknown, response: Response): string {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
    return body.message;
  }
  return `${response.status} ${response.statusText || 'request failed'}`;
}

/**
 * The `data` of an enveloped success, or an `ApiError` with the API's message: what every query
 * and mutation of the console awaits.
 */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    throw new ApiError(0, `The server could not be reached (${error instanceof Error ? error.message : String(error)})`);
  }
  if (result.error !== undefined || !result.response.ok) {
    throw new ApiError(result.response.status, messageOf(result.error, result.response));
  }
  return result.data as T;
}
