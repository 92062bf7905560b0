import { TEXT_LIMITS } from '@mesmer/shared/domain/limits';
import { TRIGGER_DESCRIPTION_MAX } from '@mesmer/shared/domain/triggers';
import { useId, useState } from 'react';
import styles from '../../library/library.module.css';
import { focusOnMount, Textarea } from '../../ui/index.ts';

/** A trigger's name and description being written (add popup, staff edit). */
export function useTriggerDraft(initial = { name: '', description: '' }) {
  const [name, setName] = useState(initial.name);
  const [description, setDescription] = useState(initial.description);
  const [nameMissing, setNameMissing] = useState(false);
  return {
    name,
    description,
    nameMissing,
    setName(value: string) {
      setName(value);
      setNameMissing(false);
    },
    // Typing beyond the spec's 250 characters is ignored.
    setDescription: (value: string) => setDescription(value.slice(0, TRIGGER_DESCRIPTION_MAX)),
    /** The trimmed fields, or null (and the name marked) when the name is empty: nothing is sent. */
    checked(): { name: string; description: string } | null {
      if (!name.trim()) {
        setNameMissing(true);
        return null;
      }
      return { name: name.trim(), description };
    },
  };
}

export function TriggerFields({
  draft,
  autoFocus = false,
}: {
  draft: ReturnType<typeof useTriggerDraft>;
  autoFocus?: boolean;
}) {
  const ids = { name: useId(), description: useId(), counter: useId() };
  return (
    <>
      <div className="field">
        <label htmlFor={ids.name}>Name</label>
        <input
          id={ids.name}
          className="input"
          value={draft.name}
          maxLength={TEXT_LIMITS.triggerName}
          aria-invalid={draft.nameMissing}
          onChange={(e) => draft.setName(e.target.value)}
          ref={autoFocus ? focusOnMount : undefined}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.description}>Description</label>
        <Textarea
          id={ids.description}
          value={draft.description}
          aria-describedby={ids.counter}
          onChange={(e) => draft.setDescription(e.target.value)}
        />
        <span id={ids.counter} className={styles.counter}>
          {draft.description.length}/{TRIGGER_DESCRIPTION_MAX}
        </span>
      </div>
    </>
  );
}
