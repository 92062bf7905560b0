import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useId } from 'react';
import styles from '../../library/library.module.css';
import { useCensor } from '../../library/useCensor.ts';
import { Spinner } from '../../ui/index.ts';
import { triggersQuery } from '../triggers/index.ts';

/** Choose triggers one at a time from a list; chosen ones show as removable chips. */
export function TriggerPicker({
  label,
  selected,
  unavailable,
  onChange,
}: {
  label: string;
  selected: number[];
  /** Chosen in the other picker, so not offered here. */
  unavailable: number[];
  onChange: (ids: number[]) => void;
}) {
  const selectId = useId();
  const censor = useCensor();
  const triggers = useQuery(triggersQuery);
  const byId = new Map(triggers.data?.map((t) => [t.id, t]));
  const offered = triggers.data?.filter((t) => !selected.includes(t.id) && !unavailable.includes(t.id)) ?? [];

  return (
    <div className={styles.filterGroup}>
      <label htmlFor={selectId} className={styles.filterLabel} style={{ display: 'block' }}>
        {label}
      </label>
      {selected.length > 0 && (
        <ul className={`${styles.chipList} ${styles.selectedChips}`} style={{ marginBottom: 8 }}>
          {selected.map((id) => {
            const name = censor.trigger(byId.get(id)?.name ?? `#${id}`);
            return (
              <li key={id} className={styles.selectedChip}>
                {name}
                <button
                  type="button"
                  className="icon-btn"
                  aria-label={`Remove ${name}`}
                  onClick={() => onChange(selected.filter((x) => x !== id))}
                >
                  <X size={14} />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {triggers.isPending ? (
        <Spinner size={18} label="Loading triggers" />
      ) : (
        <select
          id={selectId}
          className="select"
          value=""
          disabled={triggers.isError}
          onChange={(e) => {
            if (e.target.value) onChange([...selected, Number(e.target.value)]);
          }}
        >
          <option value="">{triggers.isError ? 'Triggers could not be loaded' : 'Add a trigger...'}</option>
          {offered.map((t) => (
            <option key={t.id} value={t.id}>
              {censor.trigger(t.name)}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
