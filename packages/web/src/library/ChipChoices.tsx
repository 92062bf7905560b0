import type { ReactNode } from 'react';
import styles from './library.module.css';

/** The list with `id` added, or without it when it was there already. */
export function toggleChoice<Id>(chosen: readonly Id[], id: Id): Id[] {
  return chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id];
}

/** A row of chips that press on and off; what a press changes is up to the caller. */
export function ChipChoices<Id extends string | number>({
  choices,
  chosen,
  onToggle,
}: {
  /** `icon`: drawn before the label. */
  choices: readonly { id: Id; label: string; icon?: ReactNode }[];
  chosen: readonly Id[];
  onToggle: (id: Id) => void;
}) {
  return (
    <div className={styles.chipChoices}>
      {choices.map((choice) => (
        <button
          key={choice.id}
          type="button"
          className={styles.chipChoice}
          aria-pressed={chosen.includes(choice.id)}
          onClick={() => onToggle(choice.id)}
        >
          {choice.icon}
          {choice.label}
        </button>
      ))}
    </div>
  );
}
