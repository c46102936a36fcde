/**
 * The `rules` mode of request detection: keywords, question form, a mention of the bot, and
 * excluded patterns that make short chatter ("thanks!", "ok 👍") not a request. A channel's
 * `detection_rules` JSON overrides any of the defaults. Every verdict comes with its reason in
 * words, stored with the decision and shown on the ticket.
 */

export interface SlackDetectionRules {
  /** Words or phrases that make a message a request (matched as whole words, any case). */
  keywords: string[];
  /** Patterns that make a short message chatter, whatever else it says. */
  excludedPatterns: string[];
  /** Whether a question (a `?`, or an interrogative opening) is a request. */
  questions: boolean;
  /** Whether a mention of the bot is a request. */
  botMentions: boolean;
}

export interface DetectionVerdict {
  isRequest: boolean;
  reason: string;
}

export const DEFAULT_DETECTION_RULES: SlackDetectionRules = {
  keywords: [
    'broken',
    'error',
    'bug',
    'issue',
    'problem',
    'urgent',
    'down',
    'not working',
    "can't",
    'cannot',
    'unable',
    'fails',
    'failed',
    'failing',
    'crash',
    'help',
    'outage',
    'stuck',
  ],
  excludedPatterns: ['thanks', 'thank you', 'thx', 'ok', 'okay', 'cool', 'great', 'nice', 'lol', '👍', '🙏', '🎉'],
  questions: true,
  botMentions: true,
};

/** An excluded pattern only silences a message this short (in characters): a long one is read for its request. */
const CHATTER_MAX_CHARS = 40;

const INTERROGATIVE_OPENING =
  /^(how|what|why|when|where|who|which|is|are|can|could|would|will|should|does|do|did|has|have|any(one|body)?|is there)\b/i;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A word or phrase as a whole word (emoji and punctuation stand alone). */
function phrasePattern(phrase: string): RegExp {
  const escaped = escapeRegExp(phrase.trim().toLowerCase()).replace(/\s+/g, '\\s+');
  const wordy = /^\w/.test(phrase.trim());
  return wordy ? new RegExp(`(^|[^\\p{L}\\p{N}_'])${escaped}(?=$|[^\\p{L}\\p{N}_])`, 'u') : new RegExp(escaped, 'u');
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
    : undefined;
}

/** The channel's rules: its `detection_rules` JSON over the defaults; unreadable JSON keeps the defaults. */
export function detectionRulesOf(json: string | null): SlackDetectionRules {
  if (!json) {
    return DEFAULT_DETECTION_RULES;
  }
  let given: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(json);
    given = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return DEFAULT_DETECTION_RULES;
  }
  return {
    keywords: stringList(given.keywords) ?? DEFAULT_DETECTION_RULES.keywords,
    excludedPatterns: stringList(given.excludedPatterns) ?? DEFAULT_DETECTION_RULES.excludedPatterns,
    questions: typeof given.questions === 'boolean' ? given.questions : DEFAULT_DETECTION_RULES.questions,
    botMentions: typeof given.botMentions === 'boolean' ? given.botMentions : DEFAULT_DETECTION_RULES.botMentions,
  };
}

/** Joins reasons as a person would say them: "a, b and c". */
function inWords(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * Decides by the rules: excluded chatter first (a short message matching an excluded pattern, with
 * no keyword, mention or question mark), then what makes it a request: a mention of the bot,
 * question form, keywords.
 */
export function decideByRules(text: string, rules: SlackDetectionRules, botUserId: string | null): DetectionVerdict {
  const lower = text.toLowerCase();
  const keywords = rules.keywords.filter((keyword) => phrasePattern(keyword).test(lower));
  const mentioned = rules.botMentions && botUserId !== null && text.includes(`<@${botUserId}>`);
  // A mention's markup is not what the customer said: it is left out of the length and the question form.
  const said = text.replace(/<@[A-Z0-9]+>/g, '').trim();
  const excluded = rules.excludedPatterns.find((pattern) => phrasePattern(pattern).test(lower));
  // A question mark still asks ("is it ok to upgrade?"); short chatter with nothing else is not a request.
  if (excluded && keywords.length === 0 && !mentioned && !said.includes('?') && [...said].length <= CHATTER_MAX_CHARS) {
    return { isRequest: false, reason: `excluded: '${excluded}'` };
  }
  const reasons: string[] = [];
  if (mentioned) {
    reasons.push('mention of the bot');
  }
  if (rules.questions) {
    if (said.includes('?')) {
      reasons.push('question mark');
    } else if (INTERROGATIVE_OPENING.test(said)) {
      reasons.push('question form');
    }
  }
  if (keywords.length > 0) {
    reasons.push(`keyword${keywords.length > 1 ? 's' : ''} ${keywords.map((keyword) => `'${keyword}'`).join(', ')}`);
  }
  return reasons.length > 0
    ? { isRequest: true, reason: inWords(reasons) }
    : { isRequest: false, reason: 'no keyword, question or mention of the bot' };
}
