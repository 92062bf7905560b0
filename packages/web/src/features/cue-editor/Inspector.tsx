import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import styles from './cue-editor.module.css';
import type { EditorCue } from './model/cue-document.ts';

/**
 * A number field that commits on Enter or when it loses focus (one undo step per edit, not per
 * keystroke); Escape puts the value back. Out-of-range values are clamped by the model.
 */
function NumberField({
  label,
  value,
  min,
  max,
  step,
  disabled,
  onCommit,
}: {
  label: string;
  value: number | null;
  min: number;
  max: number;
  step: number;
  disabled?: boolean;
  onCommit: (value: number) => void;
}) {
  const id = useId();
  const shown = value === null ? '' : String(value);
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]);
  const commit = () => {
    const n = Number(text);
    if (text.trim() === '' || !Number.isFinite(n)) return setText(shown);
    const clamped = Math.min(max, Math.max(min, n));
    if (clamped !== value) onCommit(clamped);
    setText(String(clamped));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      commit();
    } else if (e.key === 'Escape') {
      e.stopPropagation();
      setText(shown);
    }
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={min}
        max={max}
        step={step}
        value={text}
        disabled={disabled}
        placeholder={value === null ? '—' : undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}

/** Numeric fields for the selection: start and stop (one cue) and strength (one or several). */
export function Inspector({
  selected,
  durationMs,
  onTimes,
  onStrength,
}: {
  selected: readonly EditorCue[];
  durationMs: number;
  onTimes: (id: number, edge: 'start' | 'stop', ms: number) => void;
  onStrength: (strength: number) => void;
}) {
  const one = selected.length === 1 ? selected[0] : null;
  const strengths = new Set(selected.map((c) => c.strength));
  const strength = strengths.size === 1 ? Math.round(selected[0].strength * 100) : null;
  return (
    <fieldset className={styles.inspector} aria-label="Selected cues">
      <legend className={styles.inspectorTitle}>
        {selected.length === 0
          ? 'No cue selected'
          : selected.length === 1
            ? '1 cue selected'
            : `${selected.length} cues selected`}
      </legend>
      <NumberField
        label="Start (ms)"
        value={one ? one.time : null}
        min={0}
        max={durationMs}
        step={10}
        disabled={!one}
        onCommit={(ms) => one && onTimes(one.id, 'start', ms)}
      />
      <NumberField
        label="Stop (ms)"
        value={one ? one.stopTime : null}
        min={0}
        max={durationMs}
        step={10}
        disabled={!one}
        onCommit={(ms) => one && onTimes(one.id, 'stop', ms)}
      />
      <NumberField
        label="Strength (%)"
        value={strength}
        min={0}
        max={100}
        step={5}
        disabled={selected.length === 0}
        onCommit={(percent) => onStrength(percent / 100)}
      />
    </fieldset>
  );
}
