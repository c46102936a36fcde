import type { AgentTable } from '../agent-studio/agents/agent.table.js';
import type { ChatMessageTable, ChatThreadTable } from '../agent-studio/chats/chat.table.js';
import type { ChatMessageFeedbackTable } from '../agent-studio/chats/chat-feedback.table.js';
import type {
  McpOauthCredentialTable,
  McpOauthPendingFlowTable,
  McpServerTable,
} from '../agent-studio/mcp-servers/mcp-server.table.js';
import type { ModelProviderTable } from '../agent-studio/model-providers/model-provider.table.js';
import type { AgentRunTable } from '../agent-studio/runtime/agent-run.table.js';
import type { AgentTokenUsageTable } from '../agent-studio/runtime/agent-token-usage.table.js';
import type { TicketAgentCursorTable, TicketAgentJobTable } from '../agent-studio/ticket-agents/ticket-agent.table.js';
import type { AgentToolTable } from '../agent-studio/tools/agent-tool.table.js';
import type { ImapMessageAttemptTable } from '../channels/email/imap-message-attempt.table.js';
import type { MessengerHandoffTable } from '../channels/messenger/messenger-handoff.table.js';
import type { MessengerTokenUsageTable } from '../channels/messenger/messenger-token-usage.table.js';
import type { MessengerVisitorTable } from '../channels/messenger/messenger-visitor.table.js';
import type { SlackEventTable, SlackInstallationTable } from '../channels/slack/slack.table.js';
import type {
  SlackChannelTable,
  SlackMessageLinkTable,
  SlackRequestTable,
  SlackTicketThreadTable,
} from '../channels/slack/slack-channel.table.js';
import type { SlackTriageCursorTable } from '../channels/slack/slack-triage.table.js';
import type { EmailMessageTable } from '../delivery/email-messages/email-message.table.js';
import type { EmailOutboxTable } from '../delivery/outbox/outbox.table.js';
import type { SlackPostTable } from '../delivery/slack-posts/slack-post.table.js';
import type { ArticleFeedbackTable } from '../help-center/article-feedback/article-feedback.table.js';
import type {
  ArticleCollectionTable,
  ArticleSearchTable,
  ArticleTable,
  ArticleTagTable,
} from '../help-center/articles/article.table.js';
import type { CollectionTable } from '../help-center/collections/collection.table.js';
import type {
  HelpCenterContactSessionTable,
  HelpCenterSignInLinkTable,
} from '../help-center/contact-sign-in/contact-sign-in.table.js';
import type { HelpCenterCounterTable, HelpCenterTable } from '../help-center/help-centers/help-center.table.js';
import type { TagTable } from '../help-center/tags/tag.table.js';
import type { AccountContactTable, AccountTable } from '../platform/accounts/account.table.js';
import type { AccountAttributeValueTable } from '../platform/accounts/account-attribute.table.js';
import type { AttachmentChunkTable, AttachmentTable } from '../platform/attachments/attachment.table.js';
import type { UserAuthTokenTable, UserSessionTable } from '../platform/auth/auth.table.js';
import type { CustomerContactTable } from '../platform/contacts/customer-contact.table.js';
import type { CustomFieldTable } from '../platform/custom-fields/custom-field.table.js';
import type { EventSequenceTable, EventTable } from '../platform/events/event.table.js';
import type { MacroTable } from '../platform/macros/macro.table.js';
import type { MailboxTable } from '../platform/mailboxes/mailbox.table.js';
import type { MailboxDomainTable, MailboxVerificationLinkTable } from '../platform/mailboxes/mailbox-verification.table.js';
import type { AccountNoteAttachmentTable, AccountNoteTable } from '../platform/notes/account-note.table.js';
import type { UserNotificationPreferenceTable } from '../platform/notifications/notification-preference.table.js';
import type { OrganizationTable } from '../platform/organizations/organization.table.js';
import type {
  ReportDailyCountTable,
  ReportDurationBinTable,
  ReportFirstReplyTable,
  ReportSatisfactionCountTable,
  ReportSlaCountTable,
  ReportSurveyResponseTable,
} from '../platform/reports/report.table.js';
import type { TicketRoutingDecisionTable } from '../platform/routing/routing.table.js';
import type { RoutingRuleTable } from '../platform/routing-rules/routing-rule.table.js';
import type {
  SatisfactionContactCooldownTable,
  SatisfactionSettingsTable,
  SatisfactionSurveyTable,
} from '../platform/satisfaction/satisfaction.table.js';
import type { SlaPolicyTable } from '../platform/sla-policies/sla-policy.table.js';
import type { TeamConfigurationTable } from '../platform/team-configurations/team-configuration.table.js';
import type { TeamTagTable } from '../platform/team-tags/team-tag.table.js';
import type { TeamMemberTable, TeamTable } from '../platform/teams/team.table.js';
import type { TicketActivityTable } from '../platform/ticket-activities/ticket-activity.table.js';
import type { TicketSearchDocumentTable } from '../platform/ticket-search/ticket-search.table.js';
import type { TicketSlaEventTable, TicketSlaTargetTable } from '../platform/ticket-sla/ticket-sla.table.js';
import type { TicketTagTable } from '../platform/ticket-tags/ticket-tag.table.js';
import type { ChatReplyEmailTable } from '../platform/tickets/chat-reply-email.table.js';
import type { ChatTicketVisitorTable } from '../platform/tickets/chat-ticket-visitor.table.js';
import type {
  TeamTicketCounterTable,
  TicketCommentTable,
  TicketOptionTable,
  TicketTable,
} from '../platform/tickets/ticket.table.js';
import type { TicketCustomFieldValueTable } from '../platform/tickets/ticket-custom-field-value.table.js';
import type { ApiKeyTable } from '../platform/users/api-key.table.js';
import type { UserTable } from '../platform/users/user.table.js';
import type { UserBusinessHoursTable } from '../platform/users/user-business-hours.table.js';
import type { SavedViewTable } from '../platform/views/view.table.js';
import type { WebhookDeliveryAttemptTable, WebhookDeliveryTable, WebhookTable } from '../platform/webhooks/webhook.table.js';
import type { AttemptCounterTable } from './attempt-counter.table.js';
import type { InstanceSettingTable } from './instance-setting.table.js';

/** The database as Kysely sees it: one entry per table, each typed in its feature's `*.table.ts`. */
export interface DB {
  instance_settings: InstanceSettingTable;
  attempt_counters: AttemptCounterTable;
  organizations: OrganizationTable;
  users: UserTable;
  api_keys: ApiKeyTable;
  user_sessions: UserSessionTable;
  user_auth_tokens: UserAuthTokenTable;
  user_business_hours: UserBusinessHoursTable;
  user_notification_preferences: UserNotificationPreferenceTable;
  teams: TeamTable;
  team_members: TeamMemberTable;
  team_tags: TeamTagTable;
  team_configurations: TeamConfigurationTable;
  routing_rules: RoutingRuleTable;
  sla_policies: SlaPolicyTable;
  custom_fields: CustomFieldTable;
  attachments: AttachmentTable;
  attachment_chunks: AttachmentChunkTable;
  email_outbox: EmailOutboxTable;
  customer_contacts: CustomerContactTable;
  ticket_options: TicketOptionTable;
  team_ticket_counters: TeamTicketCounterTable;
  tickets: TicketTable;
  ticket_comments: TicketCommentTable;
  ticket_custom_field_values: TicketCustomFieldValueTable;
  ticket_search_documents: TicketSearchDocumentTable;
  ticket_routing_decisions: TicketRoutingDecisionTable;
  ticket_tags: TicketTagTable;
  ticket_activities: TicketActivityTable;
  ticket_sla_targets: TicketSlaTargetTable;
  ticket_sla_events: TicketSlaEventTable;
  account_attribute_values: AccountAttributeValueTable;
  accounts: AccountTable;
  account_contacts: AccountContactTable;
  account_notes: AccountNoteTable;
  account_note_attachments: AccountNoteAttachmentTable;
  agents: AgentTable;
  agent_tools: AgentToolTable;
  mcp_servers: McpServerTable;
  mcp_oauth_credentials: McpOauthCredentialTable;
  mcp_oauth_pending_flows: McpOauthPendingFlowTable;
  chat_threads: ChatThreadTable;
  chat_messages: ChatMessageTable;
  chat_message_feedback: ChatMessageFeedbackTable;
  model_providers: ModelProviderTable;
  agent_runs: AgentRunTable;
  agent_token_usage: AgentTokenUsageTable;
  help_centers: HelpCenterTable;
  help_center_counters: HelpCenterCounterTable;
  help_center_collections: CollectionTable;
  help_center_articles: ArticleTable;
  help_center_article_collections: ArticleCollectionTable;
  help_center_tags: TagTable;
  help_center_article_tags: ArticleTagTable;
  help_center_article_search: ArticleSearchTable;
  article_feedback: ArticleFeedbackTable;
  report_daily_counts: ReportDailyCountTable;
  report_duration_bins: ReportDurationBinTable;
  report_first_replies: ReportFirstReplyTable;
  report_sla_counts: ReportSlaCountTable;
  report_satisfaction_counts: ReportSatisfactionCountTable;
  report_survey_responses: ReportSurveyResponseTable;
  help_center_sign_in_links: HelpCenterSignInLinkTable;
  help_center_contact_sessions: HelpCenterContactSessionTable;
  messenger_visitors: MessengerVisitorTable;
  messenger_token_usage: MessengerTokenUsageTable;
  messenger_handoffs: MessengerHandoffTable;
  chat_ticket_visitors: ChatTicketVisitorTable;
  chat_reply_emails: ChatReplyEmailTable;
  satisfaction_settings: SatisfactionSettingsTable;
  satisfaction_surveys: SatisfactionSurveyTable;
  satisfaction_contact_cooldowns: SatisfactionContactCooldownTable;
  macros: MacroTable;
  saved_views: SavedViewTable;
  events: EventTable;
  event_sequences: EventSequenceTable;
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptTable;
  ticket_agent_cursors: TicketAgentCursorTable;
  ticket_agent_jobs: TicketAgentJobTable;
  mailboxes: MailboxTable;
  mailbox_verification_links: MailboxVerificationLinkTable;
  mailbox_domains: MailboxDomainTable;
  email_messages: EmailMessageTable;
  imap_message_attempts: ImapMessageAttemptTable;
  slack_installations: SlackInstallationTable;
  slack_events: SlackEventTable;
  slack_channels: SlackChannelTable;
  slack_requests: SlackRequestTable;
  slack_ticket_threads: SlackTicketThreadTable;
  slack_message_links: SlackMessageLinkTable;
  slack_posts: SlackPostTable;
  slack_triage_cursors: SlackTriageCursorTable;
}
