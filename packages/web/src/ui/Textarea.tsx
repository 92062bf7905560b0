import { type TextareaHTMLAttributes, useLayoutEffect, useRef } from 'react';

/** Textarea that grows with its content: starts at 80 px, adds 6 px beyond the scroll height. */
export const TEXTAREA_INITIAL_HEIGHT = 80;
export const TEXTAREA_EXTRA = 6;

export function Textarea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const ref = useRef<HTMLTextAreaElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: height follows the value
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = `${TEXTAREA_INITIAL_HEIGHT}px`;
    if (el.scrollHeight > TEXTAREA_INITIAL_HEIGHT) el.style.height = `${el.scrollHeight + TEXTAREA_EXTRA}px`;
  }, [props.value]);
  return (
    <textarea
      ref={ref}
      className="input"
      style={{ height: TEXTAREA_INITIAL_HEIGHT, resize: 'none' }}
      {...props}
    />
  );
}
