/**
 * The API is the judge of a form: a refused write answers one message that joins its problems
 * with `; `, each starting with the path of the value it names (`name must be at most 50
 * characters long; dailyConfig.monday.0.start has an invalid format`). This splits that message
 * and gives each problem to the most specific form field whose name its path starts with; the
 * problems that name no field stay for the form as a whole. Paths may come as `body/name`,
 * `dailyConfig/monday` or with indexes in brackets (`andRules[0]`, `actions.addTagIds[0]`): they
 * are matched as the form writes its names, with dots. The words shown stay the API's own.
 */
export interface FieldProblems {
  /** Field name → the API's words about it (several problems of one field joined). */
  fields: Record<string, string>;
  /** Problems that name no field of the form. */
  rest: string[];
}

export function fieldProblemsOf(message: string, fieldNames: readonly string[]): FieldProblems {
  // Longest names first, so that `dailyConfig.monday` wins over `dailyConfig` for its own slots.
  const names = [...fieldNames].sort((a, b) => b.length - a.length);
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const problem of message
    .split('; ')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const subject = subjectOf(problem);
    const name = names.find((candidate) => namesField(subject, candidate));
    if (name === undefined) {
      rest.push(problem);
    } else {
      fields[name] = fields[name] ? `${fields[name]}; ${problem}` : problem;
    }
  }
  return { fields, rest };
}

/** The problem as a dotted path: `body/actions/addTagIds[0] …` → `actions.addTagIds.0 …`. */
function subjectOf(problem: string): string {
  return problem
    .replace(/^body[./]/, '')
    .replace(/\//g, '.')
    .replace(/\[(\d+)\]/g, '.$1');
}

/** `subject` is about `field` when it starts with the field's path, followed by a space, a dot or its end. */
function namesField(subject: string, field: string): boolean {
  if (!subject.startsWith(field)) {
    return false;
  }
  const next = subject.charAt(field.length);
  return next === '' || next === ' ' || next === '.' || next === ':';
}
