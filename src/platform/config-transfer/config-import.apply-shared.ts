import { parseOutboundPolicy } from '../../lib/guarded-fetch.js';
import type { Principal } from '../../lib/principal.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { changeMacro, createMacro, removeMacro } from '../macros/macro.service.js';
import { createMailbox, removeMailbox, updateMailboxFields } from '../mailboxes/mailbox.service.js';
import { changeView, createView, removeView } from '../views/view.service.js';
import { changeWebhook, createWebhook, removeWebhook, type WebhookWriteRuntime } from '../webhooks/webhook.service.js';
import type { EntryOf } from './config-export.service.js';
import { type ApplyDeps, type ImportedIds, written } from './config-import.context.js';
import type { PlannedStep } from './config-import.plan.js';
import { macroActionsForApi, viewFiltersForApi } from './config-references.js';

// The steps of the sections shared across the organization: macros and views shared with teams,
// mailboxes and webhooks, each through its feature's service in the import's transaction.

export async function applySharedStep(deps: ApplyDeps, principal: Principal, step: PlannedStep, ids: ImportedIds) {
  switch (step.section) {
    case 'macros':
      return applyMacro(deps, principal, step as PlannedStep<'macros'>, ids);
    case 'views':
      return applyView(deps, principal, step as PlannedStep<'views'>, ids);
    case 'mailboxes':
      return applyMailbox(deps, principal, step as PlannedStep<'mailboxes'>, ids);
    case 'webhooks':
      return applyWebhook(deps, principal, step as PlannedStep<'webhooks'>);
  }
}

async function applyMacro(deps: ApplyDeps, principal: Principal, step: PlannedStep<'macros'>, ids: ImportedIds) {
  if (step.action === 'delete' && step.held) {
    await removeMacro(deps, principal, step.held.id);
    return;
  }
  const entry = step.entry as EntryOf<'macros'>;
  const { team: _team, actions, ...changes } = written(step, entry);
  const input = { ...changes, ...(actions !== undefined && { actions: macroActionsForApi(actions, entry.team, ids) }) };
  if (step.action === 'create') {
    await createMacro(deps, principal, {
      ...input,
      name: entry.name,
      content: entry.content,
      teamId: ids.requireTeam(entry.team),
    });
  } else if (step.held) {
    await changeMacro(deps, principal, step.held.id, input);
  }
}

async function applyView(deps: ApplyDeps, principal: Principal, step: PlannedStep<'views'>, ids: ImportedIds) {
  if (step.action === 'delete' && step.held) {
    await removeView(deps, principal, step.held.id);
    return;
  }
  const entry = step.entry as EntryOf<'views'>;
  const { team: _team, filters, ...changes } = written(step, entry);
  const input = { ...changes, ...(filters !== undefined && { filters: await viewFiltersForApi(filters, ids) }) };
  if (step.action === 'create') {
    await createView(deps, principal, { ...input, name: entry.name, teamId: ids.requireTeam(entry.team) });
  } else if (step.held) {
    await changeView(deps, principal, step.held.id, input);
  }
}

/** Mailboxes are written without their IMAP password, which the document never holds: one made or moved waits for it. */
async function applyMailbox(deps: ApplyDeps, principal: Principal, step: PlannedStep<'mailboxes'>, ids: ImportedIds) {
  if (step.action === 'delete' && step.held) {
    await removeMailbox(deps, principal, step.held.id);
    return;
  }
  const entry = step.entry as EntryOf<'mailboxes'>;
  const { team, imap, address: _address, ...changes } = written(step, entry);
  const input = { ...changes, ...(team !== undefined && { teamId: ids.requireTeam(team) }), ...(imap && { imap }) };
  const options = { passwordMayFollow: true };
  if (step.action === 'create') {
    const created = { ...input, address: entry.address, displayName: entry.displayName, delivery: entry.delivery };
    await createMailbox(deps, principal, { ...created, teamId: ids.requireTeam(entry.team) }, options);
  } else if (step.held) {
    await updateMailboxFields(deps, principal, step.held.id, input, options);
  }
}

async function applyWebhook(deps: ApplyDeps, principal: Principal, step: PlannedStep<'webhooks'>) {
  if (step.action === 'delete' && step.held) {
    await removeWebhook(deps.db, principal, step.held.id);
    return;
  }
  const runtime: WebhookWriteRuntime = {
    db: deps.db,
    clock: deps.clock,
    ids: deps.ids,
    policy: parseOutboundPolicy(deps.config.OUTBOUND_ALLOWED_HOSTS),
    box: createSecretBox(deps.secretKey),
  };
  const entry = step.entry as EntryOf<'webhooks'>;
  const { url: _url, ...changes } = written(step, entry);
  if (step.action === 'create') {
    await createWebhook(runtime, principal, { ...changes, url: entry.url, eventTypes: entry.eventTypes });
  } else if (step.held) {
    await changeWebhook(runtime, principal, step.held.id, changes);
  }
}
