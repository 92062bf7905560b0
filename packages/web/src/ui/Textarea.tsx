import { type TextareaHTMLAttributes, useLayoutEffect, useRef } from 'react';

/** Textarea that grows with its content: starts at 80 px, adds 6 px beyond the scroll height. */
export const TEXTAREA_INITIAL_HEIGHT = 80;
export const TEXTAREA_EXTRA = 6;

function fitToContent(el: HTMLTextAreaElement) {
  el.style.height = `${TEXTAREA_INITIAL_HEIGHT}px`;
  if (el.scrollHeight > TEXTAREA_INITIAL_HEIGHT) el.style.height = `${el.scrollHeight + TEXTAREA_EXTRA}px`;
}

export function Textarea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const ref = useRef<HTMLTextAreaElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: height follows the value
  useLayoutEffect(() => {
    if (ref.current) fitToContent(ref.current);
  }, [props.value]);
  return (
    <textarea
      ref={ref}
      className="input"
      style={{ height: TEXTAREA_INITIAL_HEIGHT, resize: 'none' }}
      {...props}
      // Uncontrolled textareas have no value to follow, so they also grow as the user types.
      onInput={(e) => {
        fitToContent(e.currentTarget);
        props.onInput?.(e);
      }}
    />
  );
}
