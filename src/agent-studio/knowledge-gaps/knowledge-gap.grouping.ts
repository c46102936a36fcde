/**
 * Groups customer questions by their wording, the same on every database: each question is
 * reduced to its significant terms (lower-cased, accents and punctuation dropped, stop words and
 * greetings left out, plurals folded), and a question joins the group whose first question shares
 * the most of them, when they share at least half (the Dice coefficient of the two term sets).
 */

/** Words that say nothing of what was asked: English function words and a support mail's courtesies. */
const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both ' +
    'but by can cannot could did do does doing done down during each few for from further get got had has have having he ' +
    'her here hers herself him himself his how i if in into is it its itself just let me more most my myself no nor not ' +
    'now of off on once only or other our ours ourselves out over own same she should so some such than that the their ' +
    'theirs them themselves then there these they this those through to too under until up very was we were what when ' +
    'where which while who whom why will with would you your yours yourself yourselves im ive dont doesnt cant wont ' +
    'isnt arent didnt hi hello hey dear thanks thank thx please regards best cheers kind question questions help ' +
    'anyone someone know like want need wondering wonder tell ask asking still'
  ).split(' '),
);

/** Terms of one question are read from its first characters only: a long mail's tail is rarely the question. */
const MAX_QUESTION_CHARS = 1000;
/** Two questions are alike when at least this share of their terms is common (Dice coefficient). */
const SIMILARITY = 0.5;

/** `refunds` → `refund`, `policies` → `policy`; `address`, `status` and words of four letters (`mars`) are left alone. */
function fold(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) {
    return `${word.slice(0, -3)}y`;
  }
  if (word.length > 4 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) {
    return word.slice(0, -1);
  }
  return word;
}

/** The words of a question: lower-case, without accents or punctuation. */
function wordsOf(question: string): string[] {
  return question
    .slice(0, MAX_QUESTION_CHARS)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** The significant terms of a question, in the order they first appear. */
export function significantTerms(question: string): string[] {
  const terms = wordsOf(question)
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word))
    .map(fold);
  return [...new Set(terms)];
}

/** The question as shown: its whitespace collapsed, cut at a length a title can take. */
export function displayQuestion(question: string, maxLength = 300): string {
  const collapsed = question.replace(/\s+/g, ' ').trim();
  return collapsed.length <= maxLength ? collapsed : `${collapsed.slice(0, maxLength - 1).trimEnd()}…`;
}

function similarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) {
    return 0;
  }
  let shared = 0;
  for (const term of a) {
    if (b.has(term)) {
      shared += 1;
    }
  }
  return (2 * shared) / (a.size + b.size);
}

export interface QuestionGroup<T> {
  /** The terms of the group's first (newest) question, which the others were compared with. */
  terms: string[];
  /** Its members, in the order given (newest first). */
  members: T[];
}

/**
 * Groups `items` (newest first) by the wording of `questionOf(item)`. Each starts a group unless
 * it is alike the first question of one already made; questions without a significant term group
 * only with the same words.
 */
export function groupByWording<T>(items: readonly T[], questionOf: (item: T) => string): QuestionGroup<T>[] {
  const groups: (QuestionGroup<T> & { termSet: Set<string>; exact: string })[] = [];
  for (const item of items) {
    const question = questionOf(item);
    const terms = significantTerms(question);
    const termSet = new Set(terms);
    const exact = terms.length === 0 ? wordsOf(question).join(' ') : '';
    let best: (typeof groups)[number] | undefined;
    let bestScore = 0;
    for (const group of groups) {
      const score =
        terms.length === 0 ? (group.terms.length === 0 && group.exact === exact ? 1 : 0) : similarity(termSet, group.termSet);
      if (score >= SIMILARITY && score > bestScore) {
        best = group;
        bestScore = score;
      }
    }
    if (best) {
      best.members.push(item);
    } else {
      groups.push({ terms, termSet, exact, members: [item] });
    }
  }
  return groups.map(({ terms, members }) => ({ terms, members }));
}

/** The wording asked most often in a group (compared without case or spacing); on a tie, the newest. */
export function representativeQuestion(questions: readonly string[]): string {
  const counts = new Map<string, { count: number; first: string }>();
  for (const question of questions) {
    const shown = displayQuestion(question);
    const key = shown.toLowerCase();
    const entry = counts.get(key);
    if (entry) {
      entry.count += 1;
    } else {
      counts.set(key, { count: 1, first: shown });
    }
  }
  let best = { count: 0, first: '' };
  for (const entry of counts.values()) {
    if (entry.count > best.count) {
      best = entry;
    }
  }
  return best.first;
}
