import { ChevronDown } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import styles from './library.module.css';

/** A section with a header button that shows or hides its body. */
export function Collapsible({
  title,
  open,
  onToggle,
  children,
  tone,
}: {
  title: ReactNode;
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
  tone?: 'warning' | 'accent';
}) {
  const bodyId = useId();
  return (
    <div className={`${styles.collapsible} ${tone ? styles[`collapsible_${tone}`] : ''}`}>
      <button
        type="button"
        className={styles.collapsibleHeader}
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={onToggle}
      >
        <span>{title}</span>
        <ChevronDown size={18} className={open ? styles.chevronOpen : styles.chevron} aria-hidden />
      </button>
      <div id={bodyId} className={styles.collapsibleBody} hidden={!open}>
        {children}
      </div>
    </div>
  );
}

/** A Collapsible that keeps its own open state. */
export function Section({
  title,
  defaultOpen = false,
  children,
}: {
  title: ReactNode;
  defaultOpen?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <Collapsible title={title} open={open} onToggle={() => setOpen((o) => !o)}>
      {children}
    </Collapsible>
  );
}

export interface AccordionItem<T extends string> {
  id: T;
  title: ReactNode;
  content: ReactNode;
  tone?: 'warning' | 'accent';
}

/** Collapsibles of which only one is open at a time. */
export function Accordion<T extends string>({
  items,
  initialOpen,
}: {
  items: readonly AccordionItem<T>[];
  initialOpen: T | null;
}) {
  const [openId, setOpenId] = useState<T | null>(initialOpen);
  return (
    <div className={styles.accordion}>
      {items.map((item) => (
        <Collapsible
          key={item.id}
          title={item.title}
          tone={item.tone}
          open={openId === item.id}
          onToggle={() => setOpenId((current) => (current === item.id ? null : item.id))}
        >
          {item.content}
        </Collapsible>
      ))}
    </div>
  );
}
