import styles from './ui.module.css';

export function Spinner({ size = 24, label = 'Loading' }: { size?: number; label?: string }) {
  return (
    <span className={styles.spinner} style={{ width: size, height: size }} role="status" aria-label={label} />
  );
}

/** A centred spinner for a list or page that is loading. */
export function LoadingState({ label = 'Loading' }: { label?: string }) {
  return (
    <div className={styles.state}>
      <Spinner label={label} />
    </div>
  );
}

export function EmptyState({ children }: { children: React.ReactNode }) {
  return <div className={styles.state}>{children}</div>;
}

export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className={styles.state} role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="btn btn-ghost" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
