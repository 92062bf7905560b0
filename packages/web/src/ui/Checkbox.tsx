import { useId } from 'react';
import styles from './ui.module.css';

export function Checkbox({
  label,
  checked,
  onChange,
  disabled,
  description,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  description?: string;
}) {
  const id = useId();
  return (
    <label className={styles.checkbox} htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span className={styles.checkboxBox} aria-hidden />
      <span>
        {label}
        {description && <small className={styles.checkboxDescription}>{description}</small>}
      </span>
    </label>
  );
}
