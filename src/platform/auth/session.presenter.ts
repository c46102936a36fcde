import type { SessionRow } from './session.repository.js';

/** A session ends after 12 hours without a request (and `SESSION_LIFETIME_MS` after sign-in, in session.service.ts). */
export const SESSION_IDLE_MS = 12 * 60 * 60_000;

export function toSession(row: SessionRow, currentSessionId: string | undefined) {
  return {
    id: row.id,
    current: row.id === currentSessionId,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    idleExpiresAt: new Date(Math.min(Date.parse(row.last_seen_at) + SESSION_IDLE_MS, Date.parse(row.expires_at))).toISOString(),
    userAgent: row.user_agent,
    ipAddress: row.ip_address,
  };
}
