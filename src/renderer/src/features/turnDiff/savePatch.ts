/**
 * "Copy patch" and "Save patch": the clipboard (the async Clipboard API, else a hidden text area and
 * `execCommand('copy')`, which Electron allows while it refuses every permission request, electron/security.ts)
 * and a download of a Blob (the browser saves it; Electron shows its save dialog for a download).
 */

/** Puts `text` on the clipboard; false when neither way worked. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    try {
      return document.execCommand('copy');
    } finally {
      area.remove();
    }
  }
}

/** Offers `text` as a download named `name` (a unified diff, `text/x-diff`). */
export function saveText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/x-diff' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // After the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
