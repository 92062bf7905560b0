import { useId } from 'react';
import styles from './ui.module.css';

/** What every on/off control takes: the Checkbox here and the Switch. */
export interface OnOffProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  description?: string;
}

export function Checkbox({ label, checked, onChange, disabled, description }: OnOffProps) {
  const id = useId();
  return (
    <label className={styles.checkbox} htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => {
          const next = e.target.checked;
          // Controlled: the box shows `checked` until the owner changes it (preact/compat leaves the click's state).
          e.target.checked = checked;
          onChange(next);
        }}
      />
      <span className={styles.checkboxBox} aria-hidden />
      <span>
        {label}
        {description && <small className={styles.checkboxDescription}>{description}</small>}
      </span>
    </label>
  );
}
