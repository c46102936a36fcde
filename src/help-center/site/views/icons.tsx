/**
 * The icons a collection may name (`icon`, default `book`), drawn inline as 24px outline SVGs so
 * that no icon font or outside file is loaded. An unknown name falls back to the book.
 */
const PATHS: Record<string, string> = {
  book: 'M4 5a2 2 0 0 1 2-2h12v16H6a2 2 0 0 0-2 2zm0 16V5m4 0h8',
  'book-bookmark': 'M4 5a2 2 0 0 1 2-2h12v16H6a2 2 0 0 0-2 2zm0 16V5m6-2v7l2-1.5 2 1.5V3',
  rocket: 'M12 15l-3-3c1-4 4-8 9-9-1 5-5 8-9 9m0 0-4 1 1-4m6 6-1 4 4-1c.5-1.5.5-2.5 0-3',
  gear: 'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6zm0-6v3m0 12v3M3 12h3m12 0h3M5.6 5.6l2.1 2.1m8.6 8.6 2.1 2.1m0-12.8-2.1 2.1m-8.6 8.6-2.1 2.1',
  settings:
    'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6zm0-6v3m0 12v3M3 12h3m12 0h3M5.6 5.6l2.1 2.1m8.6 8.6 2.1 2.1m0-12.8-2.1 2.1m-8.6 8.6-2.1 2.1',
  'credit-card': 'M3 6h18v12H3zm0 4h18M7 15h4',
  billing: 'M3 6h18v12H3zm0 4h18M7 15h4',
  user: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 9a7 7 0 0 1 14 0',
  users: 'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 10a7 7 0 0 1 14 0m1-10a3 3 0 0 0 0-6m2 16a6 6 0 0 0-3-5',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z',
  lock: 'M6 11h12v10H6zm2 0V7a4 4 0 0 1 8 0v4',
  question: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm-2.5-12a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.7m0 3v.5',
  lightbulb: 'M9 18h6m-5 3h4m-2-18a6 6 0 0 0-3.5 10.9c.6.5 1 1.3 1 2.1h5c0-.8.4-1.6 1-2.1A6 6 0 0 0 12 3z',
  chat: 'M4 5h16v11H9l-5 4z',
  mail: 'M3 5h18v14H3zm0 0 9 7 9-7',
  plug: 'M9 3v5m6-5v5M6 8h12v3a6 6 0 0 1-12 0zm6 9v4',
  code: 'M8 8l-4 4 4 4m8-8 4 4-4 4m-2-12-4 16',
  chart: 'M4 20V10m6 10V4m6 16v-7m4 7H2',
  globe: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM3 12h18M12 3c2.5 3 2.5 15 0 18m0-18c-2.5 3-2.5 15 0 18',
};

export function CollectionIcon({ name }: { name: string }) {
  const path = PATHS[name] ?? PATHS.book;
  return (
    <svg
      class="icon"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="1.8"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={path} />
    </svg>
  );
}
