import type { ReactNode } from 'react';
import { Spinner } from './Spinner.tsx';
import styles from './ui.module.css';

/** A form's error line, announced when it appears; nothing while there is no message. */
export function FormError({ message, detail }: { message: string | null | undefined; detail?: string }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
      {detail && <span className={styles.formErrorDetail}>{detail}</span>}
    </p>
  );
}

/** The form's primary submit button; while the request runs it is disabled and shows a spinner. */
export function SubmitButton({
  pending,
  pendingLabel,
  className,
  children,
}: {
  pending: boolean;
  /** What the spinner tells screen readers ('Saving', 'Logging in'). */
  pendingLabel: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      className={className ? `btn btn-primary ${className}` : 'btn btn-primary'}
      disabled={pending}
    >
      {pending && <Spinner size={16} label={pendingLabel} />}
      {children}
    </button>
  );
}
