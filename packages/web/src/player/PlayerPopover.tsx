import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import styles from './PlayerBar.module.css';

/** A small panel above a player-bar button; Escape or a click outside closes it. */
export function PlayerPopover({
  label,
  title,
  icon,
  pressed,
  children,
}: {
  /** The button's accessible name. */
  label: string;
  /** The panel's heading. */
  title: string;
  icon: ReactNode;
  pressed?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const host = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (e: PointerEvent) => {
      if (!host.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return (
    <div className={styles.popoverHost} ref={host}>
      <button
        ref={button}
        type="button"
        className={`icon-btn ${styles.iconButton}`}
        aria-label={label}
        aria-expanded={open}
        aria-controls={panelId}
        aria-pressed={pressed}
        onClick={() => setOpen((o) => !o)}
      >
        {icon}
      </button>
      {open && (
        <div id={panelId} className={styles.popover} role="dialog" aria-label={title}>
          <div className={styles.popoverTitle}>{title}</div>
          {children}
        </div>
      )}
    </div>
  );
}
