/**
 * `load` run on the first call only; every later call gets the same promise. A failed load is
 * forgotten, so the next call tries again instead of repeating one bad moment forever.
 *
 * For libraries a request may need but the start does not (the API reference, the MCP SDK, the
 * SMTP client, the HTML converters): imported up front, they were a quarter of the time to the
 * first answer.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
