import { type ReactNode, useId } from 'react';
import { Card, focusOnMount } from '../../ui/index.ts';
import styles from './auth.module.css';

/** The narrow centred card every sign-in, sign-up and recovery screen uses. */
export function AuthCard({
  icon,
  tone = 'accent',
  title,
  subtitle,
  children,
}: {
  icon: ReactNode;
  tone?: 'accent' | 'success' | 'error';
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
}) {
  const badge =
    tone === 'error'
      ? `${styles.badge} ${styles.badgeError}`
      : tone === 'success'
        ? `${styles.badge} ${styles.badgeSuccess}`
        : styles.badge;
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <div className={styles.intro}>
          <span className={badge} aria-hidden>
            {icon}
          </span>
          <h1>{title}</h1>
          {subtitle && <p className="muted">{subtitle}</p>}
        </div>
        {children}
      </Card>
    </div>
  );
}

/** A labelled input of the auth forms; `invalid` highlights it (aria-invalid). */
export function TextField({
  label,
  value,
  onChange,
  invalid,
  type = 'text',
  autoComplete,
  autoFocus,
  labelExtra,
  hint,
  maxLength,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  autoFocus?: boolean;
  /** Shown at the end of the label row, e.g. a 'Forgot password?' link. */
  labelExtra?: ReactNode;
  hint?: string;
  /** The API's bound for the field (TEXT_LIMITS). */
  maxLength: number;
}) {
  const id = useId();
  return (
    <div className="field">
      <div className={styles.labelRow}>
        <label htmlFor={id}>{label}</label>
        {labelExtra}
      </div>
      <input
        id={id}
        className="input"
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        autoComplete={autoComplete}
        ref={autoFocus ? focusOnMount : undefined}
        maxLength={maxLength}
        autoCapitalize="off"
        spellCheck={false}
      />
      {hint && (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      )}
    </div>
  );
}
