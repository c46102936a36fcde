/** Reading and naming configuration files: no API here, so it runs (and is tested) anywhere. */

/** `switchboard-acme-2026-11-29.json`: the organization's name kept to letters, digits and dashes. */
export function exportFileName(organizationName: string, at: Date): string {
  const slug = organizationName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `switchboard-${slug || 'configuration'}-${at.toISOString().slice(0, 10)}.json`;
}

/** A file's text as a document, or why it is not one (the API judges the rest). */
export function parseDocument(text: string): { document: unknown } | { problem: string } {
  try {
    const document: unknown = JSON.parse(text);
    if (document === null || typeof document !== 'object' || Array.isArray(document)) {
      return { problem: 'The file is JSON but not a configuration document (an object with a version).' };
    }
    return { document };
  } catch (error) {
    return { problem: `The file is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The API refuses a document whole with every problem in one message, separated by `; `. */
export function problemsOf(message: string): string[] {
  return message
    .split('; ')
    .map((problem) => problem.trim())
    .filter(Boolean);
}
