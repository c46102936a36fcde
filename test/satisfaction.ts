import { expect } from 'vitest';
import type { TestApp } from './harness.js';

/**
 * Asks a ticket's requestor for a rating by hand and answers it as the customer would: the link
 * read from the survey email in the outbox, its page's form posted. For tests that need a
 * `satisfaction.rated` among other events.
 */
export async function rateTicketBySurveyEmail(
  harness: TestApp,
  headers: Record<string, string>,
  ticketId: string,
  rating: 'good' | 'bad',
): Promise<void> {
  const requested = await harness.app.inject({ method: 'POST', url: `/v1/tickets/${ticketId}/satisfaction/request`, headers });
  expect(requested.statusCode, requested.body).toBe(201);
  const email = await harness.db
    .selectFrom('email_outbox')
    .select('text_body')
    .where('dedupe_key', '=', `satisfaction-survey:${requested.json().data.id}`)
    .executeTakeFirstOrThrow();
  const link = new URL(email.text_body.match(/Good: (http\S+)/)?.[1] ?? 'http://invalid/');
  const form = new URLSearchParams({
    ticket: link.searchParams.get('ticket') ?? '',
    token: link.searchParams.get('token') ?? '',
    rating,
  });
  const rated = await harness.app.inject({
    method: 'POST',
    url: link.pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });
  expect(rated.statusCode, rated.body).toBe(200);
}
