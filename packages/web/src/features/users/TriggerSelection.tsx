import { TriggerPicker } from '../../library/TriggerPicker.tsx';
import styles from './ProfileEditor.module.css';

/** Trigger id → 0 trained, 1 in training. */
export type TriggerChoice = ReadonlyMap<number, 0 | 1>;

const GROUPS = [
  { amount: 0, title: 'Trained', add: 'Add a trained trigger' },
  { amount: 1, title: 'In training', add: 'Add a trigger in training' },
] as const;

/**
 * The own triggers in edit mode: trained and in training. A trigger is in one group at most:
 * choosing it in one takes it out of the other (so the other group's are offered).
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
  const set = (id: number, amount: 0 | 1 | null) => {
    const next = new Map(value);
    if (amount === null) next.delete(id);
    else next.set(id, amount);
    onChange(next);
  };

  return (
    <div className={styles.triggerGroups}>
      {GROUPS.map((group) => (
        <section key={group.amount} aria-label={group.title}>
          <h3 className={styles.groupTitle}>{group.title}</h3>
          <TriggerPicker
            label={group.add}
            placeholder={`${group.add}…`}
            selected={[...value].filter(([, a]) => a === group.amount).map(([id]) => id)}
            known={known}
            removeLabel={(name) => `Remove ${name} from ${group.title}`}
            onAdd={(id) => set(id, group.amount)}
            onRemove={(id) => set(id, null)}
          />
        </section>
      ))}
    </div>
  );
}
