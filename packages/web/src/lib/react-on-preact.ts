/**
 * What `react` is in the build and the tests (vite.config.ts, decision 031): preact/compat, with a useId
 * whose ids are unique in the document. Preact numbers ids per render root, and a portal (every popup) is a
 * root of its own, so a popup's field could get the id of an element of the page and its label name that.
 */
import { useState } from 'preact/compat';

// @ts-expect-error preact/compat's types say `export =`; its ES build has the named exports this passes on.
export * from 'preact/compat';
export { default } from 'preact/compat';

let lastId = 0;

export function useId(): string {
  const [id] = useState(() => `m${(++lastId).toString(36)}`);
  return id;
}
