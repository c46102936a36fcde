/** A user's kind: admins manage the organization, members work tickets. */
export type UserType = 'ORG_ADMIN' | 'ORG_MEMBER';

/**
 * Who is calling: the user (of the API key, or signed in with a session cookie) and the
 * organization every query is scoped to. Services see the same three fields either way.
 */
export interface Principal {
  organizationId: string;
  userId: string;
  userType: UserType;
  /** Set when the caller authenticated with an API key. */
  apiKeyId?: string;
  apiKeyPrefix?: string;
  /** Set when the caller is a browser signed in with a session cookie. */
  sessionId?: string;
}
