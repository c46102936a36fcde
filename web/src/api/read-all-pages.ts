/** Pages read for a list a page needs whole (threads, users, teams, fields); past that, the first pages are shown. */
const MAX_PAGES = 20;

/** Every item of a list the API pages by cursor, up to MAX_PAGES pages. */
export async function readAllPages<Item>(
  readPage: (cursor: string | undefined) => Promise<{ data: Item[]; nextCursor?: string | null }>,
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await readPage(cursor);
    items.push(...answer.data);
    if (!answer.nextCursor) {
      break;
    }
    cursor = answer.nextCursor;
  }
  return items;
}
