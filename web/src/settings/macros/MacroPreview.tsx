import { Markdown } from '../../ui/Markdown';
import { previewReply, SAMPLE_REQUESTOR, SAMPLE_TICKET } from './macro-preview';

/** The reply as it would be posted on a sample ticket, so an author sees what each placeholder becomes. */
export function MacroPreview({
  content,
  teamName,
  agent,
}: {
  content: string;
  teamName: string;
  agent: { name: string; email: string };
}) {
  const reply = previewReply(content, teamName, agent);
  return (
    <section className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <h2 className="text-sm font-semibold">Preview</h2>
      <p className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">
        On a sample ticket: {SAMPLE_TICKET.identifier} “{SAMPLE_TICKET.title}” from {SAMPLE_REQUESTOR.firstName}{' '}
        {SAMPLE_REQUESTOR.lastName} &lt;{SAMPLE_REQUESTOR.email}&gt;.
      </p>
      {reply.trim() === '' ? (
        <p className="mt-2 text-sm text-zinc-500 dark:text-zinc-400">Write the reply to see it here.</p>
      ) : (
        <Markdown markdown={reply} label="Reply preview" className="mt-2 text-sm" />
      )}
    </section>
  );
}
