import { Modal } from '../ui/index.ts';
import styles from './PlayerBar.module.css';
import { SHORTCUTS } from './shortcuts.ts';

/** The popup listing the player's keyboard shortcuts ('?' opens it). */
export function KeyboardHelp({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} title="Keyboard shortcuts" onClose={onClose} width={420}>
      <dl className={styles.shortcuts}>
        {SHORTCUTS.map((s) => (
          <div key={s.action} className={styles.shortcut}>
            <dt>
              {s.keys.map((k) => (
                <kbd key={k} className={styles.kbd}>
                  {k}
                </kbd>
              ))}
            </dt>
            <dd>{s.label}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">Shortcuts work anywhere while something is in the player, except while typing.</p>
    </Modal>
  );
}
