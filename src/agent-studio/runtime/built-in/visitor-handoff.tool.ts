import { Type } from '@sinclair/typebox';
import { requestRunHandoff } from '../agent-run.record.js';
import type { RuntimeTool } from '../runtime-tool.js';
import { type BuiltInCall, makeBuiltInTool } from './built-in-tool.js';

const VisitorHandoffArguments = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'Why a person should take over: what you could not answer or do, and what you already found',
    }),
  },
  { additionalProperties: false },
);

/**
 * Records on the run that the visitor should talk to a person. There is no ticket yet: the
 * messenger makes one from the conversation when the run ends, for the team its settings name, so
 * the model can neither pick the team nor touch any ticket.
 */
async function requestHandoff(args: { reason: string }, { context }: BuiltInCall<unknown>) {
  await requestRunHandoff(context.deps, context.runId, args.reason);
  return {
    handed_off: true,
    message:
      'A person from the support team will take over this conversation here. Tell the visitor so in one short sentence; ' +
      'do not promise a time.',
  };
}

/** `handoff_to_human` as a messenger visitor's run offers it (see `toolsOfRun`). */
export function visitorHandoffTool(): RuntimeTool {
  return makeBuiltInTool(
    'handoff_to_human',
    {
      description:
        'Asks for a person from the support team to take over this conversation. Use it when the knowledge base does not ' +
        'answer the question, the visitor asks for a person, or the request needs a human decision or access to their account.',
      arguments: VisitorHandoffArguments,
      run: requestHandoff,
    },
    {},
  );
}
