/**
 * The customer's words a ticket run answers, written into the run's input and read back from it
 * (the knowledge gaps list the questions of handed-off runs), kept together so the two agree.
 */

/** The customer's words the agent answers: the new ticket, or the reply. */
export function inputOf(type: string, data: Record<string, unknown> | null, ticket: { ticketIdentifier: string; title: string }) {
  if (type === 'ticket.created') {
    const description = typeof data?.description === 'string' ? data.description : '';
    return `A customer opened ticket ${ticket.ticketIdentifier}: "${ticket.title}".\n\n${description}`.trim();
  }
  const content = typeof data?.content === 'string' ? data.content : '';
  return `The customer replied on ticket ${ticket.ticketIdentifier} ("${ticket.title}"):\n\n${content}`.trim();
}

const NEW_TICKET = /^A customer opened ticket \S+: "([\s\S]*)"\.(?:\n\n([\s\S]*))?$/;
const REPLY = /^The customer replied on ticket \S+ \("([\s\S]*)"\):(?:\n\n([\s\S]*))?$/;

/**
 * What the customer asked, from a ticket run's input (`inputOf`): the message they wrote, or the
 * ticket's title when they wrote nothing more. An input of another form is taken whole.
 */
export function customerQuestionOf(input: string): string {
  const match = NEW_TICKET.exec(input) ?? REPLY.exec(input);
  if (!match) {
    return input.trim();
  }
  const words = (match[2] ?? '').trim();
  return words === '' ? (match[1] ?? '').trim() : words;
}

/**
 * The hand-off reasons that mean no published article answered the customer: the agent found no
 * answer in the knowledge base, or answered without resting on an article. A failed run or an
 * answer held back for what it named is handed off too, but is no gap in the articles.
 */
export const NO_ARTICLE_REASONS = {
  noAnswer: 'The knowledge base does not answer this question.',
  ungrounded: 'The agent’s answer did not rest on any published article, so it was not sent.',
} as const;
