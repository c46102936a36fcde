import { lookupContactTool } from './built-in/contact.tool.js';
import { handoffToHumanTool } from './built-in/handoff.tool.js';
import { searchKnowledgeBaseTool } from './built-in/knowledge-base.tool.js';
import { getTicketTool, searchTicketsTool } from './built-in/ticket-read.tools.js';
import {
  addInternalNoteTool,
  createTicketCommentTool,
  createTicketTool,
  replyToCustomerTool,
} from './built-in/ticket-write.tools.js';
import type { RuntimeTool } from './runtime-tool.js';

/** Makes the runtime tool of a `built_in` agent tool, called `toolName`, from its stored configuration. */
type BuiltInToolMaker = (toolName: string, configuration: Record<string, unknown>) => RuntimeTool;

/**
 * The built-in tools a run can call, by `tool_name`; each acts on Switchboard data with the
 * permissions of the run's acting user. The older catalog names run as the tool they stand for,
 * so agent tools stored under them keep working.
 */
const BUILT_IN_RUNTIME_TOOLS = new Map<string, BuiltInToolMaker>([
  ['search_knowledge_base', searchKnowledgeBaseTool],
  ['get_ticket', getTicketTool],
  ['search_tickets', searchTicketsTool],
  ['create_ticket', createTicketTool],
  ['add_internal_note', addInternalNoteTool],
  ['reply_to_customer', replyToCustomerTool],
  ['lookup_contact', lookupContactTool],
  ['handoff_to_human', handoffToHumanTool],
  ['knowledge_base_search', searchKnowledgeBaseTool],
  ['ticket_lookup', getTicketTool],
  ['create_ticket_comment', createTicketCommentTool],
]);

/** The runtime tool of a built-in agent tool, or undefined for a name with no implementation. */
export function builtInRuntimeTool(toolName: string, configuration: Record<string, unknown>): RuntimeTool | undefined {
  return BUILT_IN_RUNTIME_TOOLS.get(toolName)?.(toolName, configuration);
}
