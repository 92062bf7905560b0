import { useEffect, useRef, useState } from 'react';
import { useDebouncedValue } from './useDebouncedValue.ts';

/**
 * A search box bound to a value kept elsewhere (the URL): typing commits the trimmed
 * text after a pause, Enter commits at once, and outside changes (back/forward)
 * replace what the box shows.
 */
export function useSearchText(value: string, commit: (text: string) => void, delayMs = 350) {
  const [text, setText] = useState(value);
  const committed = useRef(value);
  const settled = useDebouncedValue(text.trim(), delayMs);
  const commitRef = useRef(commit);
  commitRef.current = commit;

  useEffect(() => {
    if (settled === committed.current) return;
    committed.current = settled;
    commitRef.current(settled);
  }, [settled]);

  useEffect(() => {
    if (value === committed.current) return;
    committed.current = value;
    setText(value);
  }, [value]);

  const commitNow = () => {
    const trimmed = text.trim();
    if (trimmed === committed.current) return;
    committed.current = trimmed;
    commitRef.current(trimmed);
  };
  return { text, setText, commitNow };
}
