import {
  cloneElement,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { createPortal } from 'react-dom';
import styles from './Tooltip.module.css';

/** The spec's default tooltip width, in pixels. */
export const TOOLTIP_WIDTH = 200;
/** Space kept between the bubble, its element and the window's edges. */
const GAP = 8;

type TriggerProps = {
  'aria-describedby'?: string;
  onMouseEnter?: (e: MouseEvent) => void;
  onMouseLeave?: (e: MouseEvent) => void;
};

/**
 * A short text shown over `children` (one element) while the pointer rests on it or it has focus;
 * Escape hides it. `width` (the spec's 200 px by default) is as wide as the bubble grows: a longer text
 * wraps, a shorter one gets a narrower bubble. The bubble describes the element for screen readers,
 * sits above it (below when there is no room) and stays inside the window.
 */
export function Tooltip({
  content,
  width = TOOLTIP_WIDTH,
  children,
}: {
  content: ReactNode;
  width?: number;
  children: ReactElement<TriggerProps>;
}) {
  const id = useId();
  const anchor = useRef<HTMLSpanElement>(null);
  const bubble = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [place, setPlace] = useState<{ left: number; top: number } | null>(null);

  useLayoutEffect(() => {
    const at = anchor.current?.getBoundingClientRect();
    const size = bubble.current?.getBoundingClientRect();
    if (!open || !at || !size) {
      setPlace(null);
      return;
    }
    const maxLeft = Math.max(GAP, window.innerWidth - size.width - GAP);
    const left = Math.min(Math.max(at.left + at.width / 2 - size.width / 2, GAP), maxLeft);
    const above = at.top - size.height - GAP;
    setPlace({ left, top: above >= GAP ? above : at.bottom + GAP });
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const close = () => setOpen(false);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKey);
    // A fixed bubble would stay behind while the page moves.
    window.addEventListener('scroll', close, true);
    return () => {
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('scroll', close, true);
    };
  }, [open]);

  // Focus is heard on the wrapper, where focusin bubbles: preact/compat turns a DOM element's onFocus into
  // onfocusin, so the element's own focus handler is not in its props to chain.
  useEffect(() => {
    const wrapper = anchor.current;
    if (!wrapper) return;
    const show = () => setOpen(true);
    const hide = () => setOpen(false);
    wrapper.addEventListener('focusin', show);
    wrapper.addEventListener('focusout', hide);
    return () => {
      wrapper.removeEventListener('focusin', show);
      wrapper.removeEventListener('focusout', hide);
    };
  }, []);

  const own = children.props;
  const trigger = cloneElement(children, {
    'aria-describedby': own['aria-describedby'] ? `${own['aria-describedby']} ${id}` : id,
    onMouseEnter: (e: MouseEvent) => {
      own.onMouseEnter?.(e);
      setOpen(true);
    },
    onMouseLeave: (e: MouseEvent) => {
      own.onMouseLeave?.(e);
      setOpen(false);
    },
  });

  return (
    <span ref={anchor} className={styles.anchor}>
      {trigger}
      {createPortal(
        <div
          ref={bubble}
          id={id}
          role="tooltip"
          className={styles.tooltip}
          hidden={!open}
          style={{
            maxWidth: `min(${width}px, calc(100vw - ${2 * GAP}px))`,
            left: place?.left ?? 0,
            top: place?.top ?? 0,
            visibility: place ? 'visible' : 'hidden',
          }}
        >
          {content}
        </div>,
        document.body,
      )}
    </span>
  );
}
