import { useEffect, useState } from 'preact/hooks';
import { beep, type SoundPreference, unlockSound } from './sound';

/**
 * The notification sound as the panel holds it: on or off (read from the visitor's earlier choice,
 * off at first), `toggle` for the header's button, and `replyArrived` for a person's new reply,
 * which beeps only when the sound is on and the visitor does not have the panel in front of them.
 */
export function useSound(preference: SoundPreference) {
  const [on, setOn] = useState(() => preference.read());

  // A choice remembered from an earlier visit: the browser allows sound after the visitor's first gesture here.
  useEffect(() => {
    if (!on) {
      return;
    }
    const unlock = () => unlockSound();
    document.addEventListener('pointerdown', unlock, { once: true });
    document.addEventListener('keydown', unlock, { once: true });
    return () => {
      document.removeEventListener('pointerdown', unlock);
      document.removeEventListener('keydown', unlock);
    };
  }, [on]);

  return {
    on,
    toggle(): void {
      const next = !on;
      if (next) {
        // Made during the click, so a later beep is allowed.
        unlockSound();
      }
      preference.write(next);
      setOn(next);
    },
    /** `unseen`: the reply arrived while the panel was closed or its tab hidden. */
    replyArrived(unseen: boolean): void {
      if (on && unseen) {
        beep();
      }
    },
  };
}
