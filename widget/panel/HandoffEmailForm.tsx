import { useState } from 'preact/hooks';

/**
 * Outside the team's hours: a labelled address field for replies by email. The server checks the
 * address; its refusal is shown beside the field, which keeps the visitor's words. Focus is left
 * where the visitor puts it (the form appears without taking it).
 */
export function HandoffEmailForm(props: { onSave: (email: string) => Promise<string | null>; onSaved: () => void }) {
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    if (saving) {
      return;
    }
    const address = email.trim();
    if (address === '') {
      setProblem('Enter your email address.');
      return;
    }
    setSaving(true);
    const refusal = await props.onSave(address);
    setSaving(false);
    setProblem(refusal);
    if (refusal === null) {
      props.onSaved();
    }
  };

  return (
    <form
      class="email-form"
      aria-labelledby="switchboard-email-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <p class="email-title" id="switchboard-email-title">
        We{'\u2019'}ll reply by email
      </p>
      <label class="email-label" for="switchboard-email">
        Your email address
      </label>
      <div class="email-row">
        <input
          id="switchboard-email"
          class="email-input"
          type="email"
          autocomplete="email"
          maxLength={320}
          value={email}
          aria-invalid={problem !== null}
          aria-describedby={problem === null ? undefined : 'switchboard-email-problem'}
          onInput={(event) => setEmail(event.currentTarget.value)}
        />
        <button type="submit" class="send" disabled={saving}>
          Save email
        </button>
      </div>
      {problem === null ? null : (
        <p class="field-problem" id="switchboard-email-problem">
          {problem}
        </p>
      )}
    </form>
  );
}
