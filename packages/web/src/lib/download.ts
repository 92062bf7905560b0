/**
 * Saves `text` as a file named `fileName` in the browser: a download of a blob, nothing sent anywhere.
 * The link is in the document while it is clicked (Firefox ignores a detached one), and the blob's
 * address is let go once the click has started the download.
 */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
