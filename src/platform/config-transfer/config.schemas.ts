import { type Static, Type } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../http/shared-schemas.js';
import { createValidatorCompiler } from '../../http/validation.js';
import { type AjvLikeError, describeIssue, issuesFromAjv } from '../../lib/validation-issues.js';
import { CreateCustomFieldSchema } from '../custom-fields/custom-field.schemas.js';
import { CreateMacroSchema, MacroActionsSchema, UpdateMacroSchema } from '../macros/macro.schemas.js';
import { CreateImapSettingsSchema, CreateMailboxSchema, UpdateMailboxSchema } from '../mailboxes/mailbox.schemas.js';
import { CreateRoutingRuleSchema, UpdateRoutingRuleSchema } from '../routing-rules/routing-rule.schemas.js';
import { UpdateTeamConfigurationSchema } from '../team-configurations/team-configuration.schemas.js';
import { CreateTeamTagSchema, UpdateTeamTagSchema } from '../team-tags/team-tag.schemas.js';
import { CreateTeamSchema } from '../teams/team.schemas.js';
import { TicketFilterProperties } from '../tickets/ticket-filters.js';
import { ViewSortSchema } from '../views/view.filters.js';
import { CreateWebhookSchema, UpdateWebhookSchema } from '../webhooks/webhook.schemas.js';
import { SatisfactionSettingsEntrySchema, SlaPolicyEntrySchema, TicketStatusEntrySchema } from './config-sla.schemas.js';

// The configuration document: an organization's set-up, each object naming the others by name
// (teams), slug (custom fields) or email (users), never by id, so it moves between instances.
// Each entry takes its fields' schemas from the API's own create and update bodies, so a value
// the API refuses is refused here alike. Secrets (IMAP passwords, webhook secrets, keys) have no
// field: they never leave an instance and are never taken in. A field left out of an entry is
// left as it is (or takes the API's default when the object is created).

export const CONFIG_VERSION = 1;

const TeamNameSchema = CreateTeamSchema.properties.name;
const teamReference = (description: string) => ({ ...TeamNameSchema, description });
const TEAM_OF_ENTRY = 'The name of the team it belongs to (in this document or the organization)';

const TeamEntrySchema = Type.Object(
  {
    name: { ...TeamNameSchema, description: 'Unique among the teams of the document; matches the team of this name' },
    identifier: CreateTeamSchema.properties.identifier,
    parent: Type.Optional(
      Nullable(teamReference('The name of its parent (a top-level team), for a sub-team; null for a top-level team')),
    ),
    description: CreateTeamSchema.properties.description,
    icon: CreateTeamSchema.properties.icon,
    color: CreateTeamSchema.properties.color,
    isPrivate: CreateTeamSchema.properties.isPrivate,
  },
  { additionalProperties: false, description: 'A team or sub-team; its members are not part of the document' },
);

const TeamTagEntrySchema = Type.Object(
  {
    team: teamReference(TEAM_OF_ENTRY),
    name: CreateTeamTagSchema.properties.name,
    color: UpdateTeamTagSchema.properties.color,
    type: UpdateTeamTagSchema.properties.type,
    description: UpdateTeamTagSchema.properties.description,
  },
  { additionalProperties: false, description: 'Matched by team and name (ignoring case)' },
);

const configuration = UpdateTeamConfigurationSchema.properties;
const TeamConfigurationEntrySchema = Type.Object(
  {
    team: teamReference(TEAM_OF_ENTRY),
    timezone: configuration.timezone,
    routingRespectsTimezone: configuration.routingRespectsTimezone,
    routingRespectsUserCapacity: configuration.routingRespectsUserCapacity,
    routingRespectsUserTimezone: configuration.routingRespectsUserTimezone,
    routingRespectsUserAvailability: configuration.routingRespectsUserAvailability,
    routingRespectsUserBusinessHours: configuration.routingRespectsUserBusinessHours,
    userRoutingStrategy: configuration.userRoutingStrategy,
    fallbackSubTeam: Type.Optional(Nullable(teamReference('The name of a sub-team of this team; null for none'))),
    holidays: configuration.holidays,
    commonDailyConfig: configuration.commonDailyConfig,
    commonSlots: configuration.commonSlots,
    dailyConfig: {
      ...configuration.dailyConfig,
      description: 'The hours of each day as stored, kept while commonDailyConfig is true',
    },
  },
  {
    additionalProperties: false,
    description: "A team's configuration (its AI agent is not part of the document: agents live in the agent studio)",
  },
);

const RoutingRuleEntrySchema = Type.Object(
  {
    team: teamReference('The name of the team whose rule it is'),
    name: CreateRoutingRuleSchema.properties.name,
    description: CreateRoutingRuleSchema.properties.description,
    evaluationOrder: UpdateRoutingRuleSchema.properties.evaluationOrder,
    resultTeam: teamReference('The name of the team that receives a matching ticket'),
    fallbackTeam: Type.Optional(Nullable(teamReference('The name of the team that takes the ticket when resultTeam is gone'))),
    andRules: UpdateRoutingRuleSchema.properties.andRules,
    orRules: UpdateRoutingRuleSchema.properties.orRules,
  },
  {
    additionalProperties: false,
    description: 'Matched by team and name. A condition on customField.<slug> names a ticket custom field by its slug',
  },
);

export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const SlugSchema = Type.String({ pattern: SLUG_PATTERN, maxLength: 100, description: 'Unique per source' });
const field = CreateCustomFieldSchema.properties;
const CustomFieldEntrySchema = Type.Object(
  {
    source: field.source,
    slug: SlugSchema,
    name: field.name,
    team: Type.Optional(Nullable(teamReference('The name of the one team the field belongs to; null: organization-wide'))),
    fieldType: field.fieldType,
    options: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 500, description: 'Choice values' }),
    ),
    metadata: field.metadata,
    description: field.description,
    isActive: field.isActive,
    placeholderText: field.placeholderText,
    hintText: field.hintText,
    defaultValue: field.defaultValue,
    regexForValidation: field.regexForValidation,
    mandatoryOnCreation: field.mandatoryOnCreation,
    mandatoryOnClose: field.mandatoryOnClose,
    visibleToCustomer: field.visibleToCustomer,
    editableByCustomer: field.editableByCustomer,
    autoAddToAllForms: field.autoAddToAllForms,
    lookup: field.lookup,
  },
  {
    additionalProperties: false,
    description: 'Matched by source and slug; source, fieldType, team, metadata and lookup cannot change once made',
  },
);

const TagNameSchema = CreateTeamTagSchema.properties.name;
const MacroActionsEntrySchema = Type.Object(
  {
    statusName: MacroActionsSchema.properties.statusName,
    priorityName: MacroActionsSchema.properties.priorityName,
    assignedAgent: Type.Optional(
      Type.Union([Type.Null(), Type.Literal('me'), Type.String({ format: 'email', maxLength: 320 })], {
        description: 'The email of a user of the organization, me (whoever applies the macro), or null to unassign',
      }),
    ),
    addTags: Type.Optional(
      Type.Array(TagNameSchema, { maxItems: 20, uniqueItems: true, description: "Names of ticket tags of the macro's team" }),
    ),
  },
  { additionalProperties: false },
);

const MacroEntrySchema = Type.Object(
  {
    team: teamReference('The name of the team the macro is shared with'),
    name: CreateMacroSchema.properties.name,
    description: UpdateMacroSchema.properties.description,
    content: CreateMacroSchema.properties.content,
    commentVisibility: UpdateMacroSchema.properties.commentVisibility,
    shouldSendEmail: UpdateMacroSchema.properties.shouldSendEmail,
    actions: Type.Optional(MacroActionsEntrySchema),
  },
  { additionalProperties: false, description: 'A macro shared with a team, matched by team and name; personal ones stay out' },
);

const TeamOptionReferenceSchema = Type.Object(
  {
    team: teamReference('The name of the team whose status or priority it is'),
    name: Type.String({ minLength: 1, maxLength: 100, description: 'Its key, e.g. open or in_progress' }),
  },
  { additionalProperties: false },
);

const filter = TicketFilterProperties;
const ViewFiltersEntrySchema = Type.Object(
  {
    teams: Type.Optional(Type.Array(teamReference('A team name'), { maxItems: 50, description: 'Tickets of these teams' })),
    status: Type.Optional(TeamOptionReferenceSchema),
    statusName: filter.statusName,
    priority: Type.Optional(TeamOptionReferenceSchema),
    priorityName: filter.priorityName,
    isClosed: filter.isClosed,
    assignedAgent: Type.Optional(
      Type.Union([Type.Literal('none'), Type.Literal('me'), Type.String({ format: 'email', maxLength: 320 })], {
        description: 'The email of a user of the organization, none (unassigned) or me (whoever looks at the view)',
      }),
    ),
    requestorEmail: filter.requestorEmail,
    customerContactId: filter.customerContactId,
    accountId: filter.accountId,
    createdAfter: filter.createdAfter,
    createdBefore: filter.createdBefore,
    updatedAfter: filter.updatedAfter,
    updatedBefore: filter.updatedBefore,
    isPrivate: filter.isPrivate,
    tags: Type.Optional(
      Type.Array(
        Type.Union([
          Type.String({ minLength: 1, maxLength: 100, description: 'A ticket tag name, in every team' }),
          TeamOptionReferenceSchema,
        ]),
        { maxItems: 20, description: 'Tickets with any of these tags: a name in every team, or {team, name} for one tag' },
      ),
    ),
    customFields: Type.Optional(
      Type.Record(Type.String({ pattern: SLUG_PATTERN }), Type.String({ minLength: 1, maxLength: 1000 }), {
        description: 'Ticket custom fields by slug, and the value each must have',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'The filters of GET /v1/tickets with names for ids; contact and account filters keep their ids',
  },
);

const ViewEntrySchema = Type.Object(
  {
    team: teamReference('The name of the team the view is shared with'),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    filters: Type.Optional(ViewFiltersEntrySchema),
    sort: Type.Optional(ViewSortSchema),
  },
  { additionalProperties: false, description: 'A view shared with a team, matched by team and name; personal ones stay out' },
);

const imap = CreateImapSettingsSchema.properties;
const MailboxEntrySchema = Type.Object(
  {
    address: CreateMailboxSchema.properties.address,
    team: teamReference('The name of the team its new tickets go to'),
    displayName: CreateMailboxSchema.properties.displayName,
    delivery: CreateMailboxSchema.properties.delivery,
    isDefault: UpdateMailboxSchema.properties.isDefault,
    imap: Type.Optional(
      Nullable(
        Type.Object(
          {
            host: imap.host,
            port: imap.port,
            tls: imap.tls,
            username: imap.username,
            folder: imap.folder,
            processedFolder: imap.processedFolder,
          },
          {
            additionalProperties: false,
            description:
              'Without the password, which never leaves an instance: a mailbox made (or moved to another host or user) by ' +
              'an import waits for it (PATCH /v1/mailboxes/{id} with imap.password)',
          },
        ),
      ),
    ),
  },
  { additionalProperties: false, description: 'Matched by address' },
);

const WebhookEntrySchema = Type.Object(
  {
    url: CreateWebhookSchema.properties.url,
    eventTypes: CreateWebhookSchema.properties.eventTypes,
    description: UpdateWebhookSchema.properties.description,
    enabled: UpdateWebhookSchema.properties.enabled,
  },
  {
    additionalProperties: false,
    description: 'Matched by URL; its signing secret is not part of the document (one made by an import gets a new one)',
  },
);

const section = <T extends Parameters<typeof Type.Array>[0]>(entry: T, description: string) =>
  Type.Optional(Type.Array(entry, { maxItems: 1000, description }));

export const ConfigDocumentSchema = Type.Object(
  {
    version: Type.Literal(CONFIG_VERSION, { description: 'The version of the document format' }),
    teams: section(TeamEntrySchema, 'Active teams, parents before their sub-teams'),
    teamTags: section(TeamTagEntrySchema, 'Tags of the teams'),
    teamConfigurations: section(TeamConfigurationEntrySchema, 'One per team at most'),
    ticketStatuses: section(TicketStatusEntrySchema, "The teams' statuses: their names and whether they pause SLA clocks"),
    satisfactionSettings: section(
      SatisfactionSettingsEntrySchema,
      "The teams' satisfaction survey settings, one per team at most",
    ),
    routingRules: section(RoutingRuleEntrySchema, 'Routing rules of the teams'),
    slaPolicies: section(SlaPolicyEntrySchema, 'SLA policies, in evaluation order'),
    customFields: section(CustomFieldEntrySchema, 'Custom fields of tickets, accounts, contacts and custom objects'),
    macros: section(MacroEntrySchema, 'Macros shared with teams'),
    views: section(ViewEntrySchema, 'Views shared with teams'),
    mailboxes: section(MailboxEntrySchema, 'Support addresses'),
    webhooks: section(WebhookEntrySchema, 'Webhook endpoints'),
  },
  {
    additionalProperties: false,
    title: 'ConfigDocument',
    description:
      "An organization's set-up, objects naming each other by name, slug or email. A section left out of an import is " +
      'left as it is, even with prune',
  },
);

export type ConfigDocument = Static<typeof ConfigDocumentSchema>;

type DocumentValidator = ((value: unknown) => boolean) & { errors?: AjvLikeError[] | null };
let validateDocument: DocumentValidator | undefined;

/**
 * What is wrong with `value` as a configuration document, one line per bad value
 * (`teams.2.name must be at most 100 characters long`), by the same validator as request bodies
 * (no coercion, unknown keys refused, no NUL): the route and the CLI judge a document alike.
 */
export function documentShapeProblems(value: unknown): string[] {
  validateDocument ??= createValidatorCompiler()({
    schema: ConfigDocumentSchema,
    method: 'POST',
    url: '/v1/config/import',
    httpPart: 'body',
  }) as DocumentValidator;
  if (validateDocument(value)) {
    return [];
  }
  return issuesFromAjv(validateDocument.errors ?? [], 'body').map(describeIssue);
}
export type TeamEntry = Static<typeof TeamEntrySchema>;
export type TeamTagEntry = Static<typeof TeamTagEntrySchema>;
export type TeamConfigurationEntry = Static<typeof TeamConfigurationEntrySchema>;
export type RoutingRuleEntry = Static<typeof RoutingRuleEntrySchema>;
export type CustomFieldEntry = Static<typeof CustomFieldEntrySchema>;
export type MacroEntry = Static<typeof MacroEntrySchema>;
export type MacroActionsEntry = Static<typeof MacroActionsEntrySchema>;
export type ViewEntry = Static<typeof ViewEntrySchema>;
export type ViewFiltersEntry = Static<typeof ViewFiltersEntrySchema>;
export type TeamOptionReference = Static<typeof TeamOptionReferenceSchema>;
export type MailboxEntry = Static<typeof MailboxEntrySchema>;
export type WebhookEntry = Static<typeof WebhookEntrySchema>;

/** The sections, in the order an import applies them (each names only what comes before it). */
export const CONFIG_SECTIONS = [
  'teams',
  'teamConfigurations',
  'ticketStatuses',
  'customFields',
  'teamTags',
  'satisfactionSettings',
  'routingRules',
  'slaPolicies',
  'macros',
  'views',
  'mailboxes',
  'webhooks',
] as const;
export type ConfigSection = (typeof CONFIG_SECTIONS)[number];

export const ConfigImportQuerySchema = Type.Object(
  {
    dryRun: Type.Optional(Type.Boolean({ default: false, description: 'Judge and list the changes; write nothing' })),
    prune: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Also delete what the document leaves out (archive, for teams), in the sections it has; without it nothing is deleted',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ConfigChangeSchema = Type.Object(
  {
    kind: StringEnum([
      'team',
      'teamConfiguration',
      'ticketStatus',
      'customField',
      'teamTag',
      'satisfactionSettings',
      'routingRule',
      'slaPolicy',
      'macro',
      'view',
      'mailbox',
      'webhook',
    ] as const),
    name: Type.String({
      description: 'What it is matched by: a name, team / name, source / slug, an address or a URL',
    }),
    action: StringEnum(['create', 'update', 'delete'] as const, { description: 'delete archives a team' }),
    fields: Type.Array(Type.String(), { description: 'The fields of the entry that change (all it sets, on create)' }),
  },
  { additionalProperties: false },
);

export const ConfigImportResultSchema = Type.Object(
  {
    applied: Type.Boolean({ description: 'false on a dry run: nothing was written' }),
    changes: Type.Array(ConfigChangeSchema, { description: 'In the order they apply; empty when the document changes nothing' }),
  },
  { additionalProperties: false },
);

export type ConfigImportQuery = Static<typeof ConfigImportQuerySchema>;
export type ConfigChange = Static<typeof ConfigChangeSchema>;
export type ConfigChangeKind = ConfigChange['kind'];
export type ConfigImportResult = Static<typeof ConfigImportResultSchema>;
