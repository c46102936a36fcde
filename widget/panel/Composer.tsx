import type { RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';

/** The longest message the API takes (its `content` limit). */
export const MAX_MESSAGE_LENGTH = 10_000;

const count = (value: number) => value.toLocaleString('en-US');

/**
 * "Attach a file": a labelled button opening the browser's file picker (the input itself hidden, as
 * its look cannot be styled); while the file goes, the button says so; a refusal is said beside it.
 */
function AttachButton(props: { onAttach: (file: File) => Promise<string | null> }) {
  const input = useRef<HTMLInputElement>(null);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const attach = (file: File | undefined) => {
    if (!file) {
      return;
    }
    setSending(true);
    setProblem(null);
    void props.onAttach(file).then((refusal) => {
      setSending(false);
      setProblem(refusal);
      if (input.current) {
        // The same file may be picked again after a refusal.
        input.current.value = '';
      }
    });
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        class="file-input"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => attach(event.currentTarget.files?.[0])}
      />
      <button
        type="button"
        class="link-button attach"
        disabled={sending}
        aria-describedby={problem ? 'switchboard-file-problem' : undefined}
        onClick={() => input.current?.click()}
      >
        {sending ? 'Sending the file\u2026' : 'Attach a file'}
      </button>
      {problem ? (
        <p class="composer-problem" id="switchboard-file-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </>
  );
}

/**
 * Where the visitor writes: a labelled textarea (Enter sends, Shift+Enter starts a new line), the
 * characters counted against the limit, and Send. While an answer streams the visitor may write
 * the next message but not send it (the field keeps its focus rather than being disabled).
 */
export function Composer(props: {
  busy: boolean;
  onSend: (text: string) => Promise<boolean>;
  /** Sends a file (once a person has the conversation); the refusal in words, or null. Null: no files here. */
  onAttach: ((file: File) => Promise<string | null>) | null;
  field: RefObject<HTMLTextAreaElement | null>;
  /** Called as the visitor writes (once a person has the conversation, who sees it); null: nobody to tell. */
  onTyping: (() => void) | null;
}) {
  const [text, setText] = useState('');
  const blank = text.trim() === '';

  const submit = () => {
    if (props.busy || blank) {
      return;
    }
    const sent = text;
    setText('');
    // Sent with the button, the next message is written in the field again.
    props.field.current?.focus();
    void props.onSend(sent).then((accepted) => {
      // A refused message comes back, unless the visitor already wrote another.
      if (!accepted) {
        setText((current) => (current === '' ? sent : current));
      }
    });
  };

  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label class="composer-label" for="switchboard-message">
        Your question
      </label>
      <textarea
        ref={props.field}
        id="switchboard-message"
        class="composer-input"
        rows={3}
        maxLength={MAX_MESSAGE_LENGTH}
        value={text}
        aria-describedby="switchboard-message-help"
        onInput={(event) => {
          const value = event.currentTarget.value;
          setText(value);
          if (value.trim() !== '') {
            props.onTyping?.();
          }
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <div class="composer-row">
        <span class="composer-help" id="switchboard-message-help">
          {count(text.length)} / {count(MAX_MESSAGE_LENGTH)} characters. Enter sends, Shift+Enter starts a new line.
        </span>
        {props.onAttach ? <AttachButton onAttach={props.onAttach} /> : null}
        <button type="submit" class="send" disabled={props.busy || blank}>
          Send
        </button>
      </div>
    </form>
  );
}
