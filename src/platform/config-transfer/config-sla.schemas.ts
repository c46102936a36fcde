import { type Static, Type } from '@sinclair/typebox';
import { PutSatisfactionSettingsSchema } from '../satisfaction/satisfaction.schemas.js';
import { CreateSlaPolicySchema, UpdateSlaPolicySchema } from '../sla-policies/sla-policy.schemas.js';
import { CreateTeamTagSchema } from '../team-tags/team-tag.schemas.js';
import { CreateTeamSchema } from '../teams/team.schemas.js';
import { UpdateTicketStatusSchema } from '../tickets/ticket.schemas.js';

// The entries of the service-level sections of the configuration document: SLA policies, the
// statuses' SLA pausing, and each team's satisfaction survey settings. As in config.schemas.ts,
// each field's schema is the API's own (update bodies: no defaults, so a field left out is left
// as it is), and what an object names it names by name.

const teamOfEntry = (description: string) => ({ ...CreateTeamSchema.properties.name, description });

const policy = UpdateSlaPolicySchema.properties;
const CONDITION_REFERENCES =
  'Conditions as the API takes them, except that customField.<slug> names a ticket custom field by its slug, ' +
  'a teamId condition names teams by name, and a tags condition names tags by name (a tag of that name in any team)';

export const SlaPolicyEntrySchema = Type.Object(
  {
    name: { ...CreateSlaPolicySchema.properties.name, description: 'Unique among the policies of the document' },
    description: policy.description,
    position: policy.position,
    andRules: policy.andRules,
    orRules: policy.orRules,
    targets: policy.targets,
    businessHours: policy.businessHours,
    aiRepliesCount: policy.aiRepliesCount,
    warningShare: policy.warningShare,
  },
  {
    additionalProperties: false,
    description:
      'An SLA policy, matched by name; the document lists them in evaluation order, and a policy the import creates ' +
      `needs its targets. ${CONDITION_REFERENCES}`,
  },
);

const status = UpdateTicketStatusSchema.properties;
export const TicketStatusEntrySchema = Type.Object(
  {
    team: teamOfEntry('The name of the team whose status it is'),
    name: Type.String({ minLength: 1, maxLength: 100, description: "The status's key: open, in_progress, on_hold or closed" }),
    displayName: status.displayName,
    pausesSla: status.pausesSla,
  },
  {
    additionalProperties: false,
    description:
      'A status of a team, matched by team and key. Every team has its statuses from the start: an import renames ' +
      'them and sets whether they pause SLA clocks, and never adds or deletes one',
  },
);

const settings = PutSatisfactionSettingsSchema.properties;
export const SatisfactionSettingsEntrySchema = Type.Object(
  {
    team: teamOfEntry('The name of the team whose settings they are'),
    enabled: Type.Optional(settings.enabled),
    delayMinutes: Type.Optional(settings.delayMinutes),
    samplingShare: Type.Optional(settings.samplingShare),
    cooldownDays: Type.Optional(settings.cooldownDays),
    skipWhen: Type.Optional(
      Type.Object(
        {
          tags: Type.Optional(
            Type.Array(CreateTeamTagSchema.properties.name, {
              maxItems: settings.skipWhen.properties.tagIds.maxItems,
              uniqueItems: true,
              description: 'Names of tags of the team: a ticket with any of them is not surveyed',
            }),
          ),
          priorities: Type.Optional(
            Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
              maxItems: settings.skipWhen.properties.priorityIds.maxItems,
              uniqueItems: true,
              description: "Keys of the team's priorities (low, medium, high, urgent): a ticket in any of them is not surveyed",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: "A team's satisfaction survey settings, one entry per team at most; a team without one has surveys off",
  },
);

export type SlaPolicyEntry = Static<typeof SlaPolicyEntrySchema>;
export type TicketStatusEntry = Static<typeof TicketStatusEntrySchema>;
export type SatisfactionSettingsEntry = Static<typeof SatisfactionSettingsEntrySchema>;
