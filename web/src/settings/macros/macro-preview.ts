import { fillPlaceholders, macroPlaceholderValues } from '../../../../src/shared/macro-placeholders';

/** The ticket and requestor a macro's preview is filled with, shown beside it so the values can be recognised. */
export const SAMPLE_TICKET = {
  id: '01JB2Z3M4N5P6Q7R8S9T0V1W2X',
  identifier: 'BILL-12',
  title: 'Refund for order 1042',
  status: 'Open',
  priority: 'High',
  assignee: 'Sam Support',
} as const;

export const SAMPLE_REQUESTOR = { firstName: 'Pat', lastName: 'Customer', email: 'pat@customer.example' } as const;

/**
 * The reply as applying the macro would post it on the sample ticket, by the API's own rule
 * (`fillPlaceholders` with `blank`, as `platform/macros/macro.placeholders.ts` renders it), for
 * the team the macro is shared with and the signed-in agent.
 */
export function previewReply(content: string, teamName: string, agent: { name: string; email: string }): string {
  const values = macroPlaceholderValues({
    ticket: { ...SAMPLE_TICKET, team: teamName },
    requestor: SAMPLE_REQUESTOR,
    agent,
  });
  return fillPlaceholders(content, values, 'blank');
}
