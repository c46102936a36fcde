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
import { RateLimited } from './messenger.errors.js';
import { addTokensUsed, findTokensUsed } from './messenger-token-usage.repository.js';
import type { Visitor } from './messenger-visitor.service.js';
import type { MessengerHelpCenter } from './messenger-widget.js';

/** What a visitor's question comes to, as the messenger streams it (see the routes). */
export type AskEvent =
  | { event: 'message'; data: { message: VisitorMessage } }
  | { event: 'delta'; data: { text: string } }
  | { event: 'answer'; data: { message: VisitorMessage } }
  | { event: 'done'; data: { handoffRequested: boolean; answered: boolean } };

type VisitorMessage = NonNullable<Awaited<ReturnType<typeof findVisitorMessage>>>;

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
  if (helpCenter.widget.identityVerificationRequired && !visitor.verified) {
    throw new AppError({
      code: 'FORBIDDEN',
      message: 'Only signed-in customers can chat here: sign in on the website first',
      issues: [{ location: 'header', path: ['authorization'], rule: 'verification_required', message: 'is not verified' }],
    });
  }
  return helpCenter.widget.agentId;
}

export function listConversations(deps: Pick<AppDeps, 'db'>, helpCenter: MessengerHelpCenter, visitor: Visitor) {
  return listVisitorConversations(deps.db, chatVisitorOf(helpCenter, visitor));
}

export function startConversation(deps: AppDeps, helpCenter: MessengerHelpCenter, visitor: Visitor) {
  return openVisitorThread(deps, chatVisitorOf(helpCenter, visitor), requireChat(helpCenter, visitor));
}

export function rateAnswer(
  deps: Pick<AppDeps, 'db' | 'clock' | 'ids'>,
  helpCenter: MessengerHelpCenter,
  visitor: Visitor,
  answer: { conversationId: string; messageId: string; helpful: boolean },
) {
  return rateVisitorAnswer(deps, chatVisitorOf(helpCenter, visitor), answer.conversationId, answer.messageId, answer.helpful);
}

export function conversationMessages(deps: Pick<AppDeps, 'db'>, helpCenter: MessengerHelpCenter, visitor: Visitor, id: string) {
  return listVisitorMessages(deps.db, chatVisitorOf(helpCenter, visitor), id);
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
  requireChat(helpCenter, visitor);
  const chatVisitor = chatVisitorOf(helpCenter, visitor);
  const started = await startVisitorRun(deps, chatVisitor, conversationId, { content, helpCenterName: helpCenter.site.name });
  emit({ event: 'message', data: { message: started.message } });
  if (!started.run) {
    emit({ event: 'done', data: { handoffRequested: true, answered: false } });
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
    emit({ event: 'done', data: { handoffRequested: run.handoff_reason !== null || !answer, answered: answer !== undefined } });
  } finally {
    unsubscribe();
  }
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
 * Whether a visitor's question may be asked now: the help center's AI tokens of the day, then
 * the message limits (see `countMessage`); a refusal is a `RateLimited` with the seconds to wait.
 */
export async function admitQuestion(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'> & { attempts: AttemptCounter },
  helpCenter: MessengerHelpCenter,
  visitor: Visitor,
  address: string,
): Promise<void> {
  await requireTokensLeft(deps, helpCenter);
  await countMessage(deps, helpCenter, visitor, address);
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
