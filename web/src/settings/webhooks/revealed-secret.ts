/**
 * A signing secret the API has just shown (after a create or a rotation), handed from the request
 * that got it to the page that shows it once. Memory only: never stored, gone on reload.
 */
const revealed = new Map<string, string>();

export function revealSecret(webhookId: string, secret: string): void {
  revealed.set(webhookId, secret);
}

/** The secret, once: the page keeps it in its state until the person dismisses it. */
export function takeRevealedSecret(webhookId: string): string | null {
  const secret = revealed.get(webhookId) ?? null;
  revealed.delete(webhookId);
  return secret;
}
