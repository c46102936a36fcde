import { Check, Copy, KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Button } from './Button';

/**
 * A secret the API shows only once (a signing secret, a key): the value to select or copy, and a
 * plain warning that it cannot be seen again. The page drops it when the person says they kept it.
 */
export function SecretOnce({
  label,
  secret,
  onDismiss,
}: {
  /** What the secret is, e.g. "Signing secret": the name of the value and of its copy button. */
  label: string;
  secret: string;
  onDismiss: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(secret);
    setCopied(true);
  };
  return (
    <section
      aria-label={label}
      className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="flex items-center gap-2 font-medium">
        <KeyRound size={16} aria-hidden />
        Copy the {label.toLowerCase()} now: it will not be shown again.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <input
          readOnly
          value={secret}
          aria-label={label}
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 rounded border border-amber-200 bg-white px-2 py-1 font-mono text-xs text-zinc-900 dark:border-amber-800 dark:bg-zinc-900 dark:text-zinc-100"
        />
        <Button onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`}>
          {copied ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button variant="ghost" onClick={onDismiss}>
          I have stored it
        </Button>
      </div>
    </section>
  );
}
