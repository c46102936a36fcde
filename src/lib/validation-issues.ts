import type { IssueLocation, ValidationIssue } from './errors.js';

export interface AjvLikeError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
}

const pointerSegments = (pointer: string): (string | number)[] =>
  pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));

/**
 * Ajv reports one error per failed keyword, and with `anyOf` one per failed branch. Callers want
 * one issue per bad value: when every branch but one only failed for not being `null` (a nullable
 * field), that branch's errors are the useful ones; otherwise the union is reported as a whole.
 */
export function issuesFromAjv(errors: AjvLikeError[], location: IssueLocation): ValidationIssue[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const branchOf = (error: AjvLikeError, union: AjvLikeError) => {
    const prefix = union.schemaPath.replace(/\/(anyOf|oneOf)$/, '');
    const match = error.schemaPath.slice(prefix.length).match(/^\/(anyOf|oneOf)\/(\d+)/);
    return match && error.instancePath.startsWith(union.instancePath) ? Number(match[2]) : null;
  };
  const kept: AjvLikeError[] = [];
  const handled = new Set<AjvLikeError>();
  for (const union of unions) {
    const branches = new Map<number, AjvLikeError[]>();
    for (const error of errors) {
      const branch = error === union ? null : branchOf(error, union);
      if (branch !== null) {
        branches.set(branch, [...(branches.get(branch) ?? []), error]);
        handled.add(error);
      }
    }
    const meaningful = [...branches.values()].filter(
      (branchErrors) =>
        !(branchErrors.length === 1 && branchErrors[0]?.keyword === 'type' && branchErrors[0].params.type === 'null'),
    );
    const [only] = meaningful;
    if (meaningful.length === 1 && only) {
      kept.push(...only);
      handled.add(union);
    }
  }
  const ordered = [...kept, ...errors.filter((error) => !handled.has(error))];
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of ordered) {
    const issue = issueFromAjv(error, location);
    const key = `${issue.path.join('.')}|${issue.rule}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  return issues;
}

function issueFromAjv(error: AjvLikeError, location: IssueLocation): ValidationIssue {
  const path = pointerSegments(error.instancePath);
  const params = error.params;
  switch (error.keyword) {
    case 'required':
      return { location, path: [...path, String(params.missingProperty)], rule: 'required', message: 'is required' };
    case 'additionalProperties':
      return {
        location,
        path: [...path, String(params.additionalProperty)],
        rule: 'additionalProperties',
        message: 'is not an accepted field',
      };
    case 'type':
      return { location, path, rule: 'type', message: `must be ${article(String(params.type))}`, params: { type: params.type } };
    case 'enum':
      return {
        location,
        path,
        rule: 'enum',
        message: `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`,
        params: { allowedValues: params.allowedValues },
      };
    case 'const':
      return {
        location,
        path,
        rule: 'enum',
        message: `must be ${JSON.stringify(params.allowedValue)}`,
        params: { allowedValues: [params.allowedValue] },
      };
    case 'minLength':
      return {
        location,
        path,
        rule: 'minLength',
        message: `must be at least ${params.limit} characters long`,
        params: { limit: params.limit },
      };
    case 'maxLength':
      return {
        location,
        path,
        rule: 'maxLength',
        message: `must be at most ${params.limit} characters long`,
        params: { limit: params.limit },
      };
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum': {
      const words = { minimum: 'at least', exclusiveMinimum: 'greater than', maximum: 'at most', exclusiveMaximum: 'less than' };
      return {
        location,
        path,
        rule: error.keyword,
        message: `must be ${words[error.keyword]} ${params.limit}`,
        params: { limit: params.limit },
      };
    }
    case 'minItems':
      return {
        location,
        path,
        rule: 'minItems',
        message: `must have at least ${params.limit} items`,
        params: { limit: params.limit },
      };
    case 'maxItems':
      return {
        location,
        path,
        rule: 'maxItems',
        message: `must have at most ${params.limit} items`,
        params: { limit: params.limit },
      };
    case 'pattern':
      return { location, path, rule: 'pattern', message: 'has an invalid format', params: { pattern: params.pattern } };
    case 'format':
      return { location, path, rule: 'format', message: `must be a valid ${params.format}`, params: { format: params.format } };
    case 'uniqueItems':
      return { location, path, rule: 'uniqueItems', message: 'must not contain duplicates' };
    case 'anyOf':
    case 'oneOf':
      return { location, path, rule: 'union', message: 'has an invalid value' };
    default:
      return { location, path, rule: error.keyword, message: error.message ?? 'is invalid' };
  }
}

function article(type: string): string {
  const name = type === 'integer' ? 'whole number' : type;
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

/** `name must be at most 50 characters long`; the whole part is named when there is no path. */
export function describeIssue(issue: ValidationIssue): string {
  const subject = issue.path.length > 0 ? issue.path.join('.') : issue.location === 'body' ? 'body' : issue.location;
  return `${subject} ${issue.message}`;
}
