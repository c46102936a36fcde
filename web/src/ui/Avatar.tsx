/** Backgrounds white initials read on at WCAG AA (4.5:1 and more): at 600, amber and emerald do not, rose and fuchsia only just. */
const TONES = [
  'bg-blue-600',
  'bg-emerald-700',
  'bg-violet-600',
  'bg-rose-700',
  'bg-amber-700',
  'bg-cyan-700',
  'bg-fuchsia-700',
  'bg-lime-700',
];

/** Up to two initials of a name (or an email's first letter). */
export function initialsOf(name: string): string {
  const words = name
    .replace(/@.*/, '')
    .split(/[\s._-]+/)
    .filter(Boolean);
  const letters =
    words.length > 1 ? `${words[0]?.[0] ?? ''}${words[words.length - 1]?.[0] ?? ''}` : (words[0]?.slice(0, 1) ?? '?');
  return letters.toUpperCase();
}

function toneOf(name: string): string {
  let hash = 0;
  for (const char of name) {
    hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  }
  return TONES[hash % TONES.length] ?? 'bg-zinc-500';
}

/**
 * A person's picture when it is served by this origin, else their initials on a colour of their
 * own. Pictures elsewhere are not loaded: the console fetches nothing from other sites.
 */
export function Avatar({ name, url, size = 32 }: { name: string; url?: string | null; size?: 24 | 32 | 40 }) {
  const box = size === 24 ? 'h-6 w-6 text-[10px]' : size === 40 ? 'h-10 w-10 text-sm' : 'h-8 w-8 text-xs';
  if (url?.startsWith('/') && !url.startsWith('//')) {
    return <img src={url} alt="" className={`${box} shrink-0 rounded-full object-cover`} />;
  }
  return (
    <span
      aria-hidden
      className={`${box} ${toneOf(name)} flex shrink-0 items-center justify-center rounded-full font-semibold text-white`}
    >
      {initialsOf(name)}
    </span>
  );
}
