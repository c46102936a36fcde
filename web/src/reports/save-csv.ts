/** Saves text as a CSV file the browser downloads, named as given. */
export function saveCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the URL can go once the event loop has handed it over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
