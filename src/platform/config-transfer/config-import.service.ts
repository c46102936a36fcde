import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { parseOutboundPolicy } from '../../lib/guarded-fetch.js';
import type { Principal } from '../../lib/principal.js';
import { requireOrgAdmin } from '../authorization.js';
import { lockOrganization } from '../organizations/organization.lookup.js';
import { findLiveUserByEmail } from '../users/user.lookup.js';
import { CONFIG_VERSION, type ConfigDocument, type ConfigImportResult, documentShapeProblems } from './config.schemas.js';
import { readConfiguration } from './config-export.service.js';
import { applyPlan } from './config-import.apply.js';
import { referenceProblems, ruleProblems, secretProblems, userEmailsOf } from './config-import.checks.js';
import { type ApplyDeps, ImportedIds } from './config-import.context.js';
import { planImport } from './config-import.plan.js';

export type ConfigTransferDeps = Omit<ApplyDeps, 'db'> & { db: Kysely<DB> };

export interface ConfigImportOptions {
  dryRun?: boolean;
  prune?: boolean;
}

/** Thrown to roll a dry run back once everything was applied and judged; carries its answer out. */
class DryRunFinished extends Error {
  constructor(readonly result: ConfigImportResult) {
    super('dry run');
  }
}

/**
 * A refusal listing every problem, each starting with its path in the document, separated by `; `
 * (which no problem holds, so the list splits back): a 400, nothing written.
 */
function refusal(problems: string[]): AppError {
  return AppError.invalid(problems.map((problem) => problem.replaceAll('; ', ', ')).join('; '));
}

/**
 * The document, if it is one this instance reads: version 1, of the schema's shape (unknown keys
 * refused), without secrets. Otherwise a 400 listing every problem.
 */
export function checkedDocument(raw: unknown): ConfigDocument {
  const version = (raw as { version?: unknown } | null)?.version;
  if (raw !== null && typeof raw === 'object' && version !== CONFIG_VERSION) {
    throw refusal([
      `version must be ${CONFIG_VERSION}: this instance reads version ${CONFIG_VERSION} documents (got ${JSON.stringify(version ?? null)})`,
    ]);
  }
  const secrets = secretProblems(raw);
  // A secret's key is also unknown to the schema: reported once, as a secret.
  const shape = documentShapeProblems(raw).filter((problem) => !secrets.some((secret) => problem.startsWith(`${secret.path} `)));
  const problems = [...secrets.map((secret) => secret.problem), ...shape];
  if (problems.length > 0) {
    throw refusal(problems);
  }
  return raw as ConfigDocument;
}

/**
 * Makes the organization hold what the document says, in one transaction: objects matched by
 * name (team and name, source and slug, address, URL) are created or changed, and with `prune`
 * those a section leaves out are deleted (teams archived). Every change goes through its feature's
 * service, judged as that feature's API judges it. Imports of one organization take turns on its
 * row, so each plans from what the one before committed. The document is refused whole (400,
 * every problem listed, nothing written) when it is not a version 1 document, names what exists
 * nowhere, or holds a secret. A dry run applies everything the same way and rolls it back.
 * Organization admins only.
 */
export async function importConfiguration(
  deps: ConfigTransferDeps,
  principal: Principal,
  raw: unknown,
  options: ConfigImportOptions = {},
): Promise<ConfigImportResult> {
  requireOrgAdmin(principal);
  const document = checkedDocument(raw);
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const result = await importInTransaction({ ...deps, db: trx }, principal, document, options);
      if (options.dryRun) {
        throw new DryRunFinished(result);
      }
      return result;
    });
  } catch (error) {
    if (error instanceof DryRunFinished) {
      return error.result;
    }
    throw error;
  }
}

async function importInTransaction(
  deps: ApplyDeps,
  principal: Principal,
  document: ConfigDocument,
  options: ConfigImportOptions,
): Promise<ConfigImportResult> {
  await lockOrganization(deps.db, principal.organizationId);
  const held = await readConfiguration(deps.db, principal);
  const users = await usersByEmail(deps.db, principal, userEmailsOf(document));
  const plan = planImport(held, document, { prune: options.prune ?? false });
  const policy = parseOutboundPolicy(deps.config.OUTBOUND_ALLOWED_HOSTS);
  const problems = [
    ...plan.problems,
    ...referenceProblems(held, document, plan, new Set(users.keys())),
    ...ruleProblems(held, document, plan, policy),
  ];
  if (problems.length > 0) {
    throw refusal(problems);
  }
  const ids = new ImportedIds(held, users, deps, principal.organizationId);
  await applyPlan(deps, principal, plan.steps, { ids, held });
  return {
    applied: !options.dryRun,
    changes: plan.steps.map(({ kind, name, action, fields }) => ({ kind, name, action, fields })),
  };
}

/** The organization's live users the document names by email (lower case), with their ids. */
async function usersByEmail(db: Transaction<DB>, principal: Principal, emails: string[]): Promise<Map<string, string>> {
  const users = new Map<string, string>();
  for (const email of emails) {
    const user = await findLiveUserByEmail(db, principal.organizationId, email);
    if (user) {
      users.set(email.toLowerCase(), user.id);
    }
  }
  return users;
}
