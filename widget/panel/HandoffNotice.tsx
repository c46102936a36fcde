import { HandoffEmailForm } from './HandoffEmailForm';
import { handoffLines } from './handoff-text';
import type { Handoff } from './messenger-client';

/** The visitor's language for dates, as the browser states it. */
const visitorLocale = () => (typeof navigator === 'undefined' ? undefined : navigator.language);

/**
 * Once a person has the conversation: that they will reply here, the team's hours (the expected
 * wait inside them, when they are back outside them), where replies go by email, and the ticket's
 * reference; outside hours with no address, a form for one. A polite status, so a change (the
 * ticket closed, an address saved) is announced.
 */
export function HandoffNotice(props: {
  handoff: Handoff;
  onSaveEmail: (email: string) => Promise<string | null>;
  onEmailSaved: () => void;
}) {
  const { handoff } = props;
  const [first, ...rest] = handoffLines(handoff, visitorLocale(), new Date());
  return (
    <section class="notice handoff" aria-label="Talking to a person">
      <div role="status">
        <p class="handoff-lead">{first}</p>
        {rest.map((line) => (
          <p key={line} class="handoff-line">
            {line}
          </p>
        ))}
      </div>
      {handoff.emailRequired && !handoff.closed ? (
        <HandoffEmailForm onSave={props.onSaveEmail} onSaved={props.onEmailSaved} />
      ) : null}
    </section>
  );
}
