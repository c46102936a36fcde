/**
 * The notification sound: off unless the visitor turned it on, remembered beside the visitor's token
 * (the frame's localStorage, `switchboard.sound.{slug}`), a short beep made with the Web Audio API.
 */

/** The storage methods used (the frame's localStorage in the browser, which may refuse). */
export interface PreferenceStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export type SoundPreference = ReturnType<typeof createSoundPreference>;

export function createSoundPreference(storage: PreferenceStorage | null, slug: string) {
  const key = `switchboard.sound.${slug}`;
  // Storage refused: the choice lasts as long as the page.
  let kept = false;
  return {
    /** Whether the sound is on; off unless the visitor turned it on. */
    read(): boolean {
      try {
        const stored = storage?.getItem(key);
        return stored === null || stored === undefined ? kept : stored === 'on';
      } catch {
        return kept;
      }
    },
    write(on: boolean): void {
      kept = on;
      try {
        storage?.setItem(key, on ? 'on' : 'off');
      } catch {
        // Kept in memory only.
      }
    },
  };
}

/** The part of the Web Audio API the beep uses (typed here: the module is also compiled for Node, which has none). */
interface AudioParamLike {
  value: number;
  setValueAtTime(value: number, time: number): void;
  exponentialRampToValueAtTime(value: number, time: number): void;
}
interface AudioNodeLike {
  connect<Next extends AudioNodeLike>(next: Next): Next;
}
interface AudioContextLike {
  currentTime: number;
  destination: AudioNodeLike;
  resume(): Promise<void>;
  createOscillator(): AudioNodeLike & { frequency: AudioParamLike; start(time: number): void; stop(time: number): void };
  createGain(): AudioNodeLike & { gain: AudioParamLike };
}

let audio: AudioContextLike | null = null;

/**
 * Makes the audio context while the visitor clicks (the toggle): browsers let a page play sound only
 * after a gesture, and a beep later, with the panel closed, has none.
 */
export function unlockSound(): void {
  const AudioContextClass = (globalThis as { AudioContext?: new () => AudioContextLike }).AudioContext;
  if (!AudioContextClass) {
    return;
  }
  audio ??= new AudioContextClass();
  void audio.resume().catch(() => {
    // The browser keeps it muted: no beep.
  });
}

/** A short, soft beep (a fifth of a second of a sine at 880 Hz, faded out so it does not click). */
export function beep(): void {
  if (!audio) {
    return;
  }
  const oscillator = audio.createOscillator();
  const volume = audio.createGain();
  const start = audio.currentTime;
  oscillator.frequency.value = 880;
  volume.gain.setValueAtTime(0.15, start);
  volume.gain.exponentialRampToValueAtTime(0.001, start + 0.2);
  oscillator.connect(volume).connect(audio.destination);
  oscillator.start(start);
  oscillator.stop(start + 0.2);
}
