import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { Button } from './Button';

/** Copies `text` to the clipboard; says "Copied" for a moment, or that copying failed (the text stays selectable). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
      setTimeout(() => setState('idle'), 2000);
    } catch {
      // Clipboard access needs a secure context and the user's permission: the text can still be selected by hand.
      setState('failed');
    }
  };
  return (
    <span className="inline-flex items-center gap-2">
      <Button onClick={copy}>
        {state === 'copied' ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
        {label}
      </Button>
      <span role="status" className="text-xs text-zinc-500 dark:text-zinc-400">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy: select the text and copy it' : ''}
      </span>
    </span>
  );
}
