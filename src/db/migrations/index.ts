import type { Migration } from 'kysely';
import * as createTenancy from './2026-11-22T1000_create_tenancy.js';
import * as createTeams from './2026-11-22T1100_create_teams.js';
import * as createTickets from './2026-11-22T1200_create_tickets.js';
import * as createCustomFields from './2026-11-22T1300_create_custom_fields.js';
import * as createAttachmentsAndOutbox from './2026-11-22T1310_create_attachments_and_outbox.js';
import * as createHelpCenter from './2026-11-22T1400_create_help_center.js';
import * as createAgentStudio from './2026-11-22T1500_create_agent_studio.js';
import * as createAccounts from './2026-11-22T1600_create_accounts.js';
import * as createRouting from './2026-11-22T1700_create_routing.js';
import * as createAttachmentChunks from './2026-11-23T2200_create_attachment_chunks.js';
import * as listIndexesPlatform from './2026-11-23T2300_list_indexes_platform.js';
import * as listIndexesHelpCenterAgentStudio from './2026-11-23T2310_list_indexes_help_center_agent_studio.js';
import * as ticketListIndexes from './2026-11-23T2320_ticket_list_indexes.js';
import * as dropSupersededCommentIndex from './2026-11-24T0100_drop_superseded_comment_index.js';
import * as ticketFilters from './2026-11-24T0200_ticket_filters.js';
import * as createTicketSearch from './2026-11-24T0210_create_ticket_search.js';
import * as createTicketTags from './2026-11-24T0220_create_ticket_tags.js';
import * as createTicketActivities from './2026-11-24T0230_create_ticket_activities.js';
import * as createUserNotificationPreferences from './2026-11-24T0240_create_user_notification_preferences.js';
import * as createMacros from './2026-11-24T0250_create_macros.js';
import * as createSavedViews from './2026-11-24T0260_create_saved_views.js';
import * as createEvents from './2026-11-24T0300_create_events.js';
import * as createWebhooks from './2026-11-24T0400_create_webhooks.js';
import * as createMailboxesAndEmailMessages from './2026-11-24T0420_create_mailboxes_and_email_messages.js';
import * as mailboxInbound from './2026-11-24T0430_mailbox_inbound.js';
import * as outboundThreading from './2026-11-24T0440_outbound_threading.js';
import * as createAuth from './2026-11-24T0500_create_auth.js';
import * as createAgentRuntime from './2026-11-24T0600_create_agent_runtime.js';
import * as commentAgentAuthors from './2026-11-24T0700_comment_agent_authors.js';
import * as createTicketAgents from './2026-11-24T0800_create_ticket_agents.js';
import * as mailboxVerification from './2026-11-28T2100_mailbox_verification.js';
import * as emailRetention from './2026-11-28T2110_email_retention.js';
import * as imapMessageAttempts from './2026-11-28T2200_imap_message_attempts.js';
import * as createAttemptCounters from './2026-11-28T2300_create_attempt_counters.js';
import * as agentPrincipals from './2026-11-29T0000_agent_principals.js';
import * as customFieldUpdatedBy from './2026-11-29T0330_custom_field_updated_by.js';
import * as apiKeyNames from './2026-11-29T0340_api_key_names.js';
import * as macroDescriptions from './2026-11-29T0360_macro_descriptions.js';
import * as helpCenterSiteAddresses from './2026-11-29T0600_help_center_site_addresses.js';
import * as createArticleFeedback from './2026-11-29T0610_create_article_feedback.js';
import * as createHelpCenterContactSignIn from './2026-11-29T0620_create_help_center_contact_sign_in.js';
import * as helpCenterWidget from './2026-11-29T0700_help_center_widget.js';
import * as createMessengerVisitors from './2026-11-29T0710_create_messenger_visitors.js';
import * as visitorChatThreads from './2026-11-29T0800_visitor_chat_threads.js';
import * as createMessengerTokenUsage from './2026-11-29T0810_create_messenger_token_usage.js';
import * as createChatMessageFeedback from './2026-11-29T0820_create_chat_message_feedback.js';
import * as createMessengerHandoffs from './2026-11-29T1300_create_messenger_handoffs.js';
import * as createChatReplyEmails from './2026-11-29T1310_create_chat_reply_emails.js';
import * as createSlaPolicies from './2026-11-29T1400_create_sla_policies.js';
import * as statusPausesSla from './2026-11-29T1410_status_pauses_sla.js';
import * as createTicketSla from './2026-11-29T1420_create_ticket_sla.js';
import * as createSatisfaction from './2026-11-29T1500_create_satisfaction.js';
import * as createReportAggregates from './2026-11-29T1600_create_report_aggregates.js';
import * as slaWorker from './2026-11-29T1700_sla_worker.js';
import * as ticketSlaListIndexes from './2026-11-29T1710_ticket_sla_list_indexes.js';
import * as createReportSlaSatisfaction from './2026-11-29T1800_create_report_sla_satisfaction.js';
import * as reportRollups from './2026-11-29T1900_report_rollups.js';
import * as createSlack from './2026-11-30T0000_create_slack.js';
import * as articleRevision from './2026-11-30T0100_article_revision.js';
import * as slackChannels from './2026-11-30T0200_slack_channels.js';
import * as slackPosts from './2026-11-30T0310_slack_posts.js';
import * as ticketSearchQueue from './2026-11-30T1600_ticket_search_queue.js';

/**
 * Every migration, keyed by its file name. Listed by hand rather than read from the folder so
 * the compiled build and the TypeScript sources run the same set. Never edit a landed entry.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22T1000_create_tenancy': createTenancy,
  '2026-11-22T1100_create_teams': createTeams,
  '2026-11-22T1200_create_tickets': createTickets,
  '2026-11-22T1300_create_custom_fields': createCustomFields,
  '2026-11-22T1310_create_attachments_and_outbox': createAttachmentsAndOutbox,
  '2026-11-22T1400_create_help_center': createHelpCenter,
  '2026-11-22T1500_create_agent_studio': createAgentStudio,
  '2026-11-22T1600_create_accounts': createAccounts,
  '2026-11-22T1700_create_routing': createRouting,
  '2026-11-23T2200_create_attachment_chunks': createAttachmentChunks,
  '2026-11-23T2300_list_indexes_platform': listIndexesPlatform,
  '2026-11-23T2310_list_indexes_help_center_agent_studio': listIndexesHelpCenterAgentStudio,
  '2026-11-23T2320_ticket_list_indexes': ticketListIndexes,
  '2026-11-24T0100_drop_superseded_comment_index': dropSupersededCommentIndex,
  '2026-11-24T0200_ticket_filters': ticketFilters,
  '2026-11-24T0210_create_ticket_search': createTicketSearch,
  '2026-11-24T0220_create_ticket_tags': createTicketTags,
  '2026-11-24T0230_create_ticket_activities': createTicketActivities,
  '2026-11-24T0240_create_user_notification_preferences': createUserNotificationPreferences,
  '2026-11-24T0250_create_macros': createMacros,
  '2026-11-24T0260_create_saved_views': createSavedViews,
  '2026-11-24T0300_create_events': createEvents,
  '2026-11-24T0400_create_webhooks': createWebhooks,
  '2026-11-24T0420_create_mailboxes_and_email_messages': createMailboxesAndEmailMessages,
  '2026-11-24T0430_mailbox_inbound': mailboxInbound,
  '2026-11-24T0440_outbound_threading': outboundThreading,
  '2026-11-24T0500_create_auth': createAuth,
  '2026-11-24T0600_create_agent_runtime': createAgentRuntime,
  '2026-11-24T0700_comment_agent_authors': commentAgentAuthors,
  '2026-11-24T0800_create_ticket_agents': createTicketAgents,
  '2026-11-28T2100_mailbox_verification': mailboxVerification,
  '2026-11-28T2110_email_retention': emailRetention,
  '2026-11-28T2200_imap_message_attempts': imapMessageAttempts,
  '2026-11-28T2300_create_attempt_counters': createAttemptCounters,
  '2026-11-29T0000_agent_principals': agentPrincipals,
  '2026-11-29T0330_custom_field_updated_by': customFieldUpdatedBy,
  '2026-11-29T0340_api_key_names': apiKeyNames,
  '2026-11-29T0360_macro_descriptions': macroDescriptions,
  '2026-11-29T0600_help_center_site_addresses': helpCenterSiteAddresses,
  '2026-11-29T0610_create_article_feedback': createArticleFeedback,
  '2026-11-29T0620_create_help_center_contact_sign_in': createHelpCenterContactSignIn,
  '2026-11-29T0700_help_center_widget': helpCenterWidget,
  '2026-11-29T0710_create_messenger_visitors': createMessengerVisitors,
  '2026-11-29T0800_visitor_chat_threads': visitorChatThreads,
  '2026-11-29T0810_create_messenger_token_usage': createMessengerTokenUsage,
  '2026-11-29T0820_create_chat_message_feedback': createChatMessageFeedback,
  '2026-11-29T1300_create_messenger_handoffs': createMessengerHandoffs,
  '2026-11-29T1310_create_chat_reply_emails': createChatReplyEmails,
  '2026-11-29T1400_create_sla_policies': createSlaPolicies,
  '2026-11-29T1410_status_pauses_sla': statusPausesSla,
  '2026-11-29T1420_create_ticket_sla': createTicketSla,
  '2026-11-29T1500_create_satisfaction': createSatisfaction,
  '2026-11-29T1600_create_report_aggregates': createReportAggregates,
  '2026-11-29T1700_sla_worker': slaWorker,
  '2026-11-29T1710_ticket_sla_list_indexes': ticketSlaListIndexes,
  '2026-11-29T1800_create_report_sla_satisfaction': createReportSlaSatisfaction,
  '2026-11-29T1900_report_rollups': reportRollups,
  '2026-11-30T0000_create_slack': createSlack,
  '2026-11-30T0100_article_revision': articleRevision,
  '2026-11-30T0200_slack_channels': slackChannels,
  '2026-11-30T0310_slack_posts': slackPosts,
  '2026-11-30T1600_ticket_search_queue': ticketSearchQueue,
};
