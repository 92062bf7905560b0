import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useId } from 'react';
import { useCensor } from '../../../library/useCensor.ts';
import { Spinner } from '../../../ui/index.ts';
import { triggersQuery } from '../../triggers/index.ts';
import styles from './upload.module.css';

export interface PickedTrigger {
  id: number;
  trains: boolean;
}

/** The file's triggers: each with a Trains checkbox and Remove, and a select to add another. */
export function TriggerPicker({
  value,
  onChange,
}: {
  value: PickedTrigger[];
  onChange: (next: PickedTrigger[]) => void;
}) {
  const addId = useId();
  const censor = useCensor();
  const triggers = useQuery(triggersQuery);
  const nameOf = (id: number) => censor.trigger(triggers.data?.find((t) => t.id === id)?.name ?? `#${id}`);
  const offered = triggers.data?.filter((t) => !t.pending && !value.some((v) => v.id === t.id)) ?? [];

  return (
    <fieldset className={styles.fieldset}>
      <legend className="field-label">
        Triggers <span className="muted">(optional)</span>
      </legend>
      {value.length > 0 && (
        <ul className={styles.triggerRows}>
          {value.map((t) => (
            <li key={t.id} className={styles.triggerRow}>
              <span className={styles.triggerName}>{nameOf(t.id)}</span>
              <label className={styles.inline}>
                <input
                  type="checkbox"
                  aria-label={`Trains ${nameOf(t.id)}`}
                  checked={t.trains}
                  onChange={(e) =>
                    onChange(value.map((x) => (x.id === t.id ? { ...x, trains: e.target.checked } : x)))
                  }
                />
                Trains
              </label>
              <button
                type="button"
                className="icon-btn"
                aria-label={`Remove ${nameOf(t.id)}`}
                onClick={() => onChange(value.filter((x) => x.id !== t.id))}
              >
                <X size={16} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {triggers.isPending ? (
        <Spinner size={18} label="Loading triggers" />
      ) : (
        <>
          <label htmlFor={addId} className="visually-hidden">
            Add a trigger
          </label>
          <select
            id={addId}
            className="select"
            value=""
            disabled={triggers.isError}
            onChange={(e) => {
              const id = Number(e.target.value);
              if (id) onChange([...value, { id, trains: false }]);
            }}
          >
            <option value="">{triggers.isError ? 'Triggers could not be loaded' : 'Add a trigger...'}</option>
            {offered.map((t) => (
              <option key={t.id} value={t.id}>
                {censor.trigger(t.name)}
              </option>
            ))}
          </select>
        </>
      )}
    </fieldset>
  );
}
