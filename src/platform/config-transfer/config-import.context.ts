import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { IdFactory } from '../../lib/ids.js';
import { listTeamOptions } from '../tickets/ticket-option.service.js';
import type { TeamOptionReference } from './config.schemas.js';
import type { HeldConfiguration } from './config-export.service.js';
import type { PlannedStep } from './config-import.plan.js';
import type { DocumentIds } from './config-references.js';

// What the steps of an import share as they apply: the services' dependencies, and the ids of
// what the document names, which grow as the import creates what it names.

/** What applying a plan needs: the import's transaction as `db`, and what the features' services take. */
export interface ApplyDeps {
  db: Transaction<DB>;
  clock: Clock;
  ids: IdFactory;
  config: Config;
  secretKey: Buffer;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

/** The ids of what the document names, from what is held and from what the import creates as it goes. */
export class ImportedIds implements DocumentIds {
  readonly teams = new Map<string, string>();
  readonly tags = new Map<string, string>();
  /** `source\0slug` → the field's id. */
  readonly fields = new Map<string, string>();

  constructor(
    held: HeldConfiguration,
    private readonly users: Map<string, string>,
    private readonly deps: ApplyDeps,
    private readonly organizationId: string,
  ) {
    for (const team of [...held.teams].reverse()) {
      this.teams.set(team.entry.name, team.id);
    }
    for (const tag of [...held.teamTags].reverse()) {
      this.tags.set(ImportedIds.tagKey(tag.entry), tag.id);
    }
    for (const field of [...held.customFields].reverse()) {
      this.fields.set(`${field.entry.source}\u0000${field.entry.slug}`, field.id);
    }
  }

  static tagKey(tag: TeamOptionReference): string {
    return `${tag.team}\u0000${tag.name.toLowerCase()}`;
  }

  team(name: string): string | undefined {
    return this.teams.get(name);
  }

  /**
   * The id of a team the document names (the checks before applying made sure one exists), or the
   * name itself when it is an id the export could not name: then the service judges it.
   */
  requireTeam(name: string): string {
    return this.teams.get(name) ?? name;
  }

  tag(reference: TeamOptionReference): string | undefined {
    return this.tags.get(ImportedIds.tagKey(reference));
  }

  ticketFieldId(slug: string): string | undefined {
    return this.fields.get(`ticket\u0000${slug}`);
  }

  userId(email: string): string | undefined {
    return this.users.get(email.toLowerCase());
  }

  async option(reference: TeamOptionReference, kind: 'status' | 'priority'): Promise<string | undefined> {
    const teamId = this.team(reference.team);
    if (!teamId) {
      return undefined;
    }
    const wanted = reference.name.toLowerCase();
    const options = await listTeamOptions(this.deps.db, this.deps, { id: teamId, organization_id: this.organizationId }, kind);
    return options.find((option) => option.name === wanted || option.display_name.toLowerCase() === wanted)?.id;
  }
}

/** The entry's fields that the step writes: all it gives on create, those that change on update. */
export function written<E extends object>(step: PlannedStep, entry: E): Partial<E> {
  return Object.fromEntries(Object.entries(entry).filter(([field]) => step.fields.includes(field))) as Partial<E>;
}
