import { type ReactNode, useId } from 'react';
import styles from './ui.module.css';

/** What a Field hands its control so the label, hint and error are tied to it. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A labelled form control with an optional hint and error under it. The control comes from a
 * render function so any input, select or textarea gets the ids without a wrapper element.
 */
export function Field({
  label,
  optional = false,
  hint,
  error,
  invalid = false,
  children,
}: {
  label: ReactNode;
  /** Adds a muted '(optional)' to the label. */
  optional?: boolean;
  hint?: ReactNode;
  /** Shown under the control, which is marked invalid. */
  error?: string | null;
  /** Marks the control invalid without a message under it (the form says what is wrong). */
  invalid?: boolean;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {optional && (
          <>
            {' '}
            <span className="muted">(optional)</span>
          </>
        )}
      </label>
      {children({
        id,
        'aria-invalid': error || invalid ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <p id={hintId} className={styles.fieldHint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className={styles.fieldError}>
          {error}
        </p>
      )}
    </div>
  );
}
