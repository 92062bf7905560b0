import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import styles from './PlayerBar.module.css';

/** A small panel above a player-bar button; Escape or a click outside closes it. */
export function PlayerPopover({
  label,
  title,
  icon,
  pressed,
  open: openProp,
  onOpenChange,
  children,
}: {
  /** The button's accessible name. */
  label: string;
  /** The panel's heading. */
  title: string;
  icon: ReactNode;
  pressed?: boolean;
  /** Open from outside (a keyboard shortcut); the popover keeps its own state when left out. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  children: ReactNode;
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = openProp ?? ownOpen;
  const setOpen = (next: boolean) => {
    if (openProp === undefined) setOwnOpen(next);
    onOpenChange?.(next);
  };
  const setOpenRef = useRef(setOpen);
  setOpenRef.current = setOpen;
  const host = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  const panel = useRef<HTMLDivElement>(null);
  const controlled = openProp !== undefined;
  // Opened from outside (a shortcut): focus goes to the panel's first control.
  useEffect(() => {
    if (open && controlled) panel.current?.querySelector<HTMLElement>('input, button, select')?.focus();
  }, [open, controlled]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (e: PointerEvent) => {
      if (!host.current?.contains(e.target as Node)) setOpenRef.current(false);
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpenRef.current(false);
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
        onClick={() => setOpen(!open)}
      >
        {icon}
      </button>
      {open && (
        <div ref={panel} id={panelId} className={styles.popover} role="dialog" aria-label={title}>
          <div className={styles.popoverTitle}>{title}</div>
          {children}
        </div>
      )}
    </div>
  );
}
