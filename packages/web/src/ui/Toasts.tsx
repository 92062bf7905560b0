import { AlertTriangle, CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { dismissToast, type ToastVariant, useToasts } from './toast-store.ts';
import styles from './ui.module.css';

const ICONS: Record<ToastVariant, typeof Info> = {
  success: CheckCircle2,
  warning: AlertTriangle,
  error: XCircle,
  info: Info,
};

export function ToastViewport() {
  const toasts = useToasts();
  return (
    <div className={styles.toasts} aria-live="polite">
      {toasts.map((t) => {
        const Icon = ICONS[t.variant];
        return (
          <div
            key={t.id}
            className={`${styles.toast} ${styles[`toast_${t.variant}`]}`}
            role={t.variant === 'error' ? 'alert' : 'status'}
            data-variant={t.variant}
          >
            <Icon size={20} aria-hidden />
            <div className={styles.toastText}>
              <strong>{t.title}</strong>
              {t.message && <span>{t.message}</span>}
            </div>
            <button
              type="button"
              className="icon-btn"
              aria-label="Dismiss"
              onClick={() => dismissToast(t.id)}
            >
              <X size={16} />
            </button>
          </div>
        );
      })}
    </div>
  );
}
