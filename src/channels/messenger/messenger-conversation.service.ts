import {
  type ChatVisitor,
  findVisitorMessage,
  listVisitorConversations,
  listVisitorMessages,
  openVisitorThread,
  rateVisitorAnswer,
} from '../../agent-studio/chats/visitor-chat.service.js';
import { followRun, startVisitorRun } from '../../agent-studio/runtime/visitor-run.service.js';
import type { AppDeps } from '../../deps.js';
import type { AttemptCounter } from '../../http/attempt-counters.js';
import { countAgainstBudgets } from '../../lib/attempt-budgets.js';
import { AppError } from '../../lib/errors.js';
import type { UploadInput } from '../../lib/upload-input.js';
import type { AttachmentStorage } from '../../platform/attachments/attachment.storage.js';
import { RateLimited } from './messenger.errors.js';
import {
  conversationOf,
  handOff,
  latestShown,
  messagesSinceHandoff,
  openConversationFile,
  reportTyping,
  sendFileToPerson,
  sendToPerson,
  type VisitorMessage,
  withHandoff,
  withHandoffs,
} from './messenger-handoff.service.js';
import { addTokensUsed, findTokensUsed } from './messenger-token-usage.repository.js';
import type { Visitor } from './messenger-visitor.service.js';
import type { MessengerHelpCenter } from './messenger-widget.js';

/** What a visitor's question comes to, as the messenger streams it (see the routes). */
export type AskEvent =
  | { event: 'message'; data: { message: VisitorMessage } }
  | { event: 'delta'; data: { text: string } }
  | { event: 'answer'; data: { message: VisitorMessage } }
  | {
      event: 'done';
      /** `conversation` is null only when answering failed unexpectedly (the panel reloads it). */
      data: { handoffRequested: boolean; answered: boolean; conversation: MessengerConversation | null };
    };

export type MessengerConversation = Awaited<ReturnType<typeof withHandoff>>;

/** Said to the visitor when the assistant could not answer: the reason (a provider's error, a budget) is the team's. */
export const NOT_ANSWERED = 'The assistant could not answer just now.';

/** The visitor as the agent studio's conversations know them. */
export function chatVisitorOf(helpCenter: MessengerHelpCenter, visitor: Visitor): ChatVisitor {
  return {
    organizationId: helpCenter.site.organizationId,
    helpCenterId: helpCenter.site.id,
    visitorId: visitor.id,
    contactId: visitor.contact?.id ?? null,
  };
}

/**
 * The agent a visitor may chat with: the widget's, when it names one; a widget that requires
 * verified identities refuses anonymous visitors (they may still search and read).
 */
export function requireChat(helpCenter: MessengerHelpCenter, visitor: Visitor): string {
  if (!helpCenter.widget.agentId) {
    throw AppError.notFound('Chat is not available in this messenger');
  }
  requireVerifiedIfRequired(helpCenter, visitor);
  return helpCenter.widget.agentId;
}

function requireVerifiedIfRequired(helpCenter: MessengerHelpCenter, visitor: Visitor): void {
  if (helpCenter.widget.identityVerificationRequired && !visitor.verified) {
    throw new AppError({
      code: 'FORBIDDEN',
      message: 'Only signed-in customers can chat here: sign in on the website first',
      issues: [{ location: 'header', path: ['authorization'], rule: 'verification_required', message: 'is not verified' }],
    });
  }
}

export async function listConversations(deps: AppDeps, helpCenter: MessengerHelpCenter, visitor: Visitor) {
  const conversations = await listVisitorConversations(deps.db, chatVisitorOf(helpCenter, visitor));
  return withHandoffs(deps, helpCenter.site.organizationId, conversations);
}

export async function startConversation(deps: AppDeps, helpCenter: MessengerHelpCenter, visitor: Visitor) {
  const conversation = await openVisitorThread(deps, chatVisitorOf(helpCenter, visitor), requireChat(helpCenter, visitor));
  return { ...conversation, handoff: null };
}

/** One of the visitor's conversations with its handoff. */
export async function getConversation(deps: AppDeps, helpCenter: MessengerHelpCenter, visitor: Visitor, id: string) {
  return (await conversationWithTicket(deps, helpCenter, visitor, id)).conversation;
}

/** As `getConversation`, with the id of its chat ticket when handed off (for the live stream). */
export async function conversationWithTicket(deps: AppDeps, helpCenter: MessengerHelpCenter, visitor: Visitor, id: string) {
  const { conversation, handoff } = await conversationOf(deps, chatVisitorOf(helpCenter, visitor), id);
  return { conversation: await withHandoff(deps, conversation, handoff), ticketId: handoff?.ticket_id ?? null };
}

/**
 * Asks for a person (the visitor's "Talk to a person"): see `handOff`. A widget that requires
 * verified identities refuses anonymous visitors, as for chatting.
 */
export function requestPerson(
  deps: AppDeps,
  helpCenter: MessengerHelpCenter,
  visitor: Visitor,
  id: string,
  email: string | undefined,
) {
  requireVerifiedIfRequired(helpCenter, visitor);
  return handOff(deps, helpCenter, { ...chatVisitorOf(helpCenter, visitor), visitor }, id, { email, by: 'visitor' });
}

export function visitorTyping(deps: AppDeps, helpCenter: MessengerHelpCenter, visitor: Visitor, id: string) {
  return reportTyping(deps, chatVisitorOf(helpCenter, visitor), id);
}

export function rateAnswer(
  deps: Pick<AppDeps, 'db' | 'clock' | 'ids'>,
  helpCenter: MessengerHelpCenter,
  visitor: Visitor,
  answer: { conversationId: string; messageId: string; helpful: boolean },
) {
  return rateVisitorAnswer(deps, chatVisitorOf(helpCenter, visitor), answer.conversationId, answer.messageId, answer.helpful);
}

/** The conversation's messages: with the assistant, then, once handed off, what the ticket says since. */
export async function conversationMessages(
  deps: Pick<AppDeps, 'db'>,
  helpCenter: MessengerHelpCenter,
  visitor: Visitor,
  id: string,
): Promise<VisitorMessage[]> {
  const chatVisitor = chatVisitorOf(helpCenter, visitor);
  const withAssistant = await listVisitorMessages(deps.db, chatVisitor, id);
  const { handoff } = await conversationOf(deps, chatVisitor, id);
  return latestShown([...withAssistant, ...(handoff ? await messagesSinceHandoff(deps, handoff) : [])]);
}

/**
 * Writes the visitor's message and asks the help center's agent, calling `emit` with the message,
 * each piece of the answer as the model writes it, the answer with its citations, and the end.
 * Resolves when the run ends. Tool calls and the run's errors stay inside: the visitor is told only
 * that there was no answer, and offered a person.
 */
export async function ask(
  deps: AppDeps,
  helpCenter: MessengerHelpCenter,
  visitor: Visitor,
  conversationId: string,
  content: string,
  emit: (event: AskEvent) => void,
): Promise<void> {
  const chatVisitor = chatVisitorOf(helpCenter, visitor);
  const { conversation, handoff } = await conversationOf(deps, chatVisitor, conversationId);
  if (handoff) {
    requireVerifiedIfRequired(helpCenter, visitor);
    emit({ event: 'message', data: { message: await sendToPerson(deps, chatVisitor, handoff, { content }) } });
    const current = await withHandoff(deps, conversation, handoff);
    emit({ event: 'done', data: { handoffRequested: false, answered: false, conversation: current } });
    return;
  }
  requireChat(helpCenter, visitor);
  const started = await startVisitorRun(deps, chatVisitor, conversationId, { content, helpCenterName: helpCenter.site.name });
  emit({ event: 'message', data: { message: started.message } });
  if (!started.run) {
    emit({ event: 'done', data: { handoffRequested: true, answered: false, conversation: { ...conversation, handoff: null } } });
    return;
  }
  let answerId: string | null = null;
  const unsubscribe = followRun(deps, started.run.runId, (event) => {
    if (event.event === 'text_delta' && event.data.delta.length > 0) {
      emit({ event: 'delta', data: { text: event.data.delta } });
    } else if (event.event === 'message') {
      answerId = (event.data as { id?: string }).id ?? null;
    }
  });
  try {
    const run = await started.run.finished;
    await recordTokensSpent(deps, helpCenter, run.input_tokens + run.output_tokens);
    const answer =
      answerId && run.status === 'succeeded'
        ? await findVisitorMessage(deps.db, chatVisitor, conversationId, answerId)
        : undefined;
    if (answer) {
      emit({ event: 'answer', data: { message: answer } });
    }
    const after = await afterRun(deps, helpCenter, { ...chatVisitor, visitor }, conversationId, run.handoff_reason);
    emit({
      event: 'done',
      data: { handoffRequested: run.handoff_reason !== null || !answer, answered: answer !== undefined, conversation: after },
    });
  } finally {
    unsubscribe();
  }
}

/**
 * The conversation once the run ended: handed to a person when the assistant asked for one
 * (`handoff_to_human`) and the widget names a team that takes them; otherwise as it was.
 */
async function afterRun(
  deps: AppDeps,
  helpCenter: MessengerHelpCenter,
  chatVisitor: ChatVisitor & { visitor: Visitor },
  conversationId: string,
  handoffReason: string | null,
): Promise<MessengerConversation> {
  if (handoffReason !== null && helpCenter.widget.handoffTeamId) {
    return (await handOff(deps, helpCenter, chatVisitor, conversationId, { by: 'assistant', reason: handoffReason }))
      .conversation;
  }
  const { conversation, handoff } = await conversationOf(deps, chatVisitor, conversationId);
  return withHandoff(deps, conversation, handoff);
}

/** Today (UTC) for the help center's token count, and the seconds until tomorrow. */
function usageDayOf(deps: Pick<AppDeps, 'clock'>, helpCenter: MessengerHelpCenter) {
  const now = deps.clock.now();
  const day = now.toISOString().slice(0, 10);
  const tomorrow = Date.parse(`${day}T00:00:00.000Z`) + 86_400_000;
  return {
    key: { helpCenterId: helpCenter.site.id, organizationId: helpCenter.site.organizationId, day },
    secondsLeft: Math.max(1, Math.ceil((tomorrow - now.getTime()) / 1000)),
  };
}

/**
 * Refuses a question once the help center's messenger spent its AI tokens of the day
 * (`MESSENGER_AI_TOKENS_PER_DAY`). A check, not a reservation: the questions being answered when
 * the cap is reached finish, so a day may end a few answers past it.
 */
async function requireTokensLeft(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, helpCenter: MessengerHelpCenter) {
  const cap = deps.config.MESSENGER_AI_TOKENS_PER_DAY;
  if (cap === 0) {
    return;
  }
  const { key, secondsLeft } = usageDayOf(deps, helpCenter);
  if ((await findTokensUsed(deps.db, key)) >= cap) {
    throw new RateLimited(
      'The assistant has answered all it can for today: search the help center, or ask again tomorrow',
      secondsLeft,
    );
  }
}

async function recordTokensSpent(deps: Pick<AppDeps, 'db' | 'clock'>, helpCenter: MessengerHelpCenter, tokens: number) {
  if (tokens > 0) {
    await addTokensUsed(deps.db, usageDayOf(deps, helpCenter).key, tokens, deps.clock.now().toISOString());
  }
}

/**
 * Whether a visitor's message may be sent now: the message limits (see `countMessage`), and for a
 * question to the assistant first the help center's AI tokens of the day (a message to a person
 * spends none); a refusal is a `RateLimited` with the seconds to wait.
 */
export async function admitMessage(
  deps: AppDeps & { attempts: AttemptCounter },
  helpCenter: MessengerHelpCenter,
  visitor: Visitor,
  message: { conversationId: string; address: string },
): Promise<void> {
  const { handoff } = await conversationOf(deps, chatVisitorOf(helpCenter, visitor), message.conversationId);
  if (!handoff) {
    await requireTokensLeft(deps, helpCenter);
  }
  await countMessage(deps, helpCenter, visitor, message.address);
}

/**
 * One message counted against the visitor, the client address and the help center; past a limit
 * it counts nothing and is refused with how long to wait (see `countAgainstBudgets`).
 */
export async function countMessage(
  deps: Pick<AppDeps, 'config'> & { attempts: AttemptCounter },
  helpCenter: MessengerHelpCenter,
  visitor: Visitor,
  address: string,
): Promise<void> {
  const { config } = deps;
  const limits = [
    { key: `messenger-messages-visitor:${visitor.id}`, max: config.MESSENGER_MESSAGES_PER_VISITOR, who: 'You are' },
    { key: `messenger-messages-address:${address}`, max: config.MESSENGER_MESSAGES_PER_ADDRESS, who: 'This address is' },
    {
      key: `messenger-messages-help-center:${helpCenter.site.id}`,
      max: config.MESSENGER_MESSAGES_PER_HELP_CENTER,
      who: 'Visitors are',
    },
  ].filter((limit) => limit.max > 0);
  const verdict = await countAgainstBudgets(deps.attempts, limits, config.MESSENGER_MESSAGE_WINDOW_SECONDS * 1000);
  if (verdict.exceeded) {
    const wait = verdict.retryAfterSeconds;
    throw new RateLimited(
      `${limits[verdict.overIndex]?.who} sending messages too quickly: wait ${wait} seconds, then send it again`,
      wait,
    );
  }
}

/** A file from the visitor to the person who has the conversation (409 before a handoff). */
export async function sendFile(
  deps: AppDeps & { storage: AttachmentStorage },
  helpCenter: MessengerHelpCenter,
  visitor: Visitor,
  id: string,
  upload: UploadInput,
) {
  requireVerifiedIfRequired(helpCenter, visitor);
  const chatVisitor = chatVisitorOf(helpCenter, visitor);
  const { handoff } = await conversationOf(deps, chatVisitor, id);
  return sendFileToPerson(deps, chatVisitor, handoff, { uploadedById: helpCenter.createdById, upload });
}

/** A file of the visitor's conversation (theirs or the team's, on a public comment); anything else is a 404. */
export async function conversationFile(
  deps: AppDeps & { storage: AttachmentStorage },
  helpCenter: MessengerHelpCenter,
  visitor: Visitor,
  id: string,
  fileId: string,
) {
  const { handoff } = await conversationOf(deps, chatVisitorOf(helpCenter, visitor), id);
  return openConversationFile(deps, handoff, fileId);
}
