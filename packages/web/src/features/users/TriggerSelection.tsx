import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useId } from 'react';
import { triggersQuery } from '../triggers/index.ts';
import styles from './ProfileEditor.module.css';

/** Trigger id → 0 trained, 1 in training. */
export type TriggerChoice = ReadonlyMap<number, 0 | 1>;

const GROUPS = [
  { amount: 0, title: 'Trained', add: 'Add a trained trigger' },
  { amount: 1, title: 'In training', add: 'Add a trigger in training' },
] as const;

/**
 * The own triggers in edit mode: trained and in training. A trigger is in one group at most:
 * choosing it in one takes it out of the other.
 */
export function TriggerSelection({
  value,
  known,
  onChange,
}: {
  value: TriggerChoice;
  /** Names already at hand (the user's saved triggers), shown before the list arrives. */
  known: readonly { id: number; name: string }[];
  onChange: (value: TriggerChoice) => void;
}) {
  const triggers = useQuery(triggersQuery);
  const baseId = useId();
  const nameOf = (id: number) =>
    (triggers.data ?? known).find((t) => t.id === id)?.name ??
    known.find((t) => t.id === id)?.name ??
    `#${id}`;
  const set = (id: number, amount: 0 | 1 | null) => {
    const next = new Map(value);
    if (amount === null) next.delete(id);
    else next.set(id, amount);
    onChange(next);
  };

  return (
    <div className={styles.triggerGroups}>
      {GROUPS.map((group) => {
        const chosen = [...value].filter(([, a]) => a === group.amount).map(([id]) => id);
        const selectId = `${baseId}-${group.amount}`;
        return (
          <section key={group.amount} aria-label={group.title}>
            <h3 className={styles.groupTitle}>{group.title}</h3>
            <ul className={styles.chips}>
              {chosen.map((id) => (
                <li key={id}>
                  {nameOf(id)}
                  <button
                    type="button"
                    className="icon-btn"
                    aria-label={`Remove ${nameOf(id)} from ${group.title}`}
                    onClick={() => set(id, null)}
                  >
                    <X size={14} aria-hidden />
                  </button>
                </li>
              ))}
            </ul>
            <label htmlFor={selectId} className="visually-hidden">
              {group.add}
            </label>
            <select
              id={selectId}
              className="input"
              value=""
              disabled={!triggers.data}
              onChange={(e) => set(Number(e.target.value), group.amount)}
            >
              <option value="">{group.add}…</option>
              {triggers.data
                ?.filter((t) => value.get(t.id) !== group.amount)
                .map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
            </select>
          </section>
        );
      })}
    </div>
  );
}
