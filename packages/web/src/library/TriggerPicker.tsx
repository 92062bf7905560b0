import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { triggersQuery } from '../api/triggers.ts';
import { Select, Spinner } from '../ui/index.ts';
import library from './library.module.css';
import styles from './TriggerPicker.module.css';
import { useCensor } from './useCensor.ts';

/**
 * Choose triggers one at a time from a select; the chosen ones show above it, each with Remove.
 * A file's triggers are rows with their own controls (Trains); the generator's and the profile's
 * lists are chips.
 */
export function TriggerPicker({
  label,
  showLabel = false,
  placeholder = 'Add a trigger...',
  selected,
  exclude = [],
  publishedOnly = false,
  known = [],
  removeLabel = (name) => `Remove ${name}`,
  rowControls,
  onAdd,
  onRemove,
}: {
  /** The select's label; screen-reader only unless `showLabel` (the caller's heading names the group). */
  label: string;
  showLabel?: boolean;
  placeholder?: string;
  selected: readonly number[];
  /** Not offered, though not chosen here (chosen in a sibling picker). */
  exclude?: readonly number[];
  /** Offer no pending trigger requests: files may link published triggers only. */
  publishedOnly?: boolean;
  /** Names already at hand, shown for chosen triggers before the list arrives. */
  known?: readonly { id: number; name: string }[];
  removeLabel?: (name: string) => string;
  /** Controls of a chosen trigger; with them the chosen ones show as rows instead of chips. */
  rowControls?: (id: number, name: string) => ReactNode;
  onAdd: (id: number) => void;
  onRemove: (id: number) => void;
}) {
  const selectId = useId();
  const censor = useCensor();
  const triggers = useQuery(triggersQuery);
  const nameOf = (id: number) =>
    censor.trigger(
      triggers.data?.find((t) => t.id === id)?.name ?? known.find((t) => t.id === id)?.name ?? `#${id}`,
    );
  const offered =
    triggers.data?.filter(
      (t) => !selected.includes(t.id) && !exclude.includes(t.id) && !(publishedOnly && t.pending),
    ) ?? [];

  return (
    <>
      <label
        htmlFor={selectId}
        className={showLabel ? `${library.filterLabel} ${styles.label}` : 'visually-hidden'}
      >
        {label}
      </label>
      {/* Always in the page (hidden by CSS while empty) so a group's list can be found before anything is chosen. */}
      <ul
        className={rowControls ? styles.rows : `${library.chipList} ${library.selectedChips} ${styles.chips}`}
      >
        {selected.map((id) => {
          const name = nameOf(id);
          return (
            <li key={id} className={rowControls ? styles.row : library.selectedChip}>
              {rowControls ? <span className={styles.rowName}>{name}</span> : name}
              {rowControls?.(id, name)}
              <button
                type="button"
                className="icon-btn"
                aria-label={removeLabel(name)}
                onClick={() => onRemove(id)}
              >
                <X size={rowControls ? 16 : 14} aria-hidden />
              </button>
            </li>
          );
        })}
      </ul>
      {triggers.isPending ? (
        <Spinner size={18} label="Loading triggers" />
      ) : (
        <Select
          id={selectId}
          value=""
          disabled={triggers.isError}
          placeholder={triggers.isError ? 'Triggers could not be loaded' : placeholder}
          options={offered.map((t) => ({ value: t.id, label: censor.trigger(t.name) }))}
          onChange={(e) => {
            const id = Number(e.target.value);
            if (id) onAdd(id);
          }}
        />
      )}
    </>
  );
}
