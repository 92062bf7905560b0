/** Links the operator sets at build time (VITE_* variables); defaults suit a local install. */
export const WIKI_URL = (import.meta.env.VITE_WIKI_URL as string | undefined) ?? 'https://wiki.mesmer.local';
export const CONTACT_EMAIL =
  (import.meta.env.VITE_CONTACT_EMAIL as string | undefined) ?? 'support@mesmer.local';
