import { toast } from '../ui/index.ts';

/** Copies a link and says so; the toast texts are the spec's. */
export async function copyLink(url: string, message?: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    toast('success', 'Link copied!', message);
  } catch {
    toast('error', 'Could not copy the link.', url);
  }
}

export function absoluteUrl(path: string): string {
  return new URL(path, window.location.origin).toString();
}
