import styles from './ui.module.css';

export interface TabItem<T extends string> {
  id: T;
  label: string;
}

/** Tab switcher; arrow keys move between tabs. */
export function Tabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
}: {
  tabs: readonly TabItem<T>[];
  value: T;
  onChange: (id: T) => void;
  label: string;
}) {
  return (
    <div className={styles.tabs} role="tablist" aria-label={label}>
      {tabs.map((t, i) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          aria-selected={t.id === value}
          tabIndex={t.id === value ? 0 : -1}
          className={t.id === value ? `${styles.tab} ${styles.tabActive}` : styles.tab}
          onClick={() => onChange(t.id)}
          onKeyDown={(e) => {
            const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
            if (!step) return;
            const next = tabs[(i + step + tabs.length) % tabs.length];
            onChange(next.id);
            (
              e.currentTarget.parentElement?.children[(i + step + tabs.length) % tabs.length] as HTMLElement
            )?.focus();
          }}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
