import { useId } from 'react';
import type { OnOffProps } from './Checkbox.tsx';
import styles from './ui.module.css';

/** An on/off setting: a labelled switch that answers immediately (no Save button). */
export function Switch({ label, checked, onChange, disabled, description }: OnOffProps) {
  const labelId = useId();
  const descriptionId = useId();
  return (
    <div className={styles.switchRow}>
      <div className={styles.switchText}>
        <span id={labelId} className={styles.switchLabel}>
          {label}
        </span>
        {description && (
          <small id={descriptionId} className={styles.checkboxDescription}>
            {description}
          </small>
        )}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={labelId}
        aria-describedby={description ? descriptionId : undefined}
        disabled={disabled}
        className={styles.switch}
        // preact/compat, unlike React, passes a dispatched click to a disabled button.
        onClick={() => !disabled && onChange(!checked)}
      >
        <span className={styles.switchThumb} aria-hidden />
      </button>
    </div>
  );
}
