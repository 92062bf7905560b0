import { TEXT_LIMITS } from '@mesmer/shared/domain/limits';
import { Search, SlidersHorizontal } from 'lucide-react';
import { useSearchText } from '../lib/useSearchText.ts';
import styles from './library.module.css';

/**
 * The keyword box of a list kept in the URL: `value` is the committed search; typing
 * commits after a pause, Enter at once (see useSearchText).
 */
export function SearchBox({
  value,
  onCommit,
  label,
  placeholder,
}: {
  value: string;
  onCommit: (text: string) => void;
  label: string;
  placeholder: string;
}) {
  const { text, setText, commitNow } = useSearchText(value, onCommit);
  return (
    <div className={styles.searchBox}>
      <Search size={16} aria-hidden />
      <input
        className="input"
        type="search"
        maxLength={TEXT_LIMITS.search}
        aria-label={label}
        placeholder={placeholder}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commitNow();
        }}
      />
    </div>
  );
}

/** The 'Sort by' select of a list. */
export function SortSelect<Id extends string>({
  options,
  value,
  onChange,
}: {
  options: readonly { id: Id; label: string }[];
  value: Id;
  onChange: (id: Id) => void;
}) {
  return (
    <select
      className={`select ${styles.sortSelect}`}
      aria-label="Sort by"
      value={value}
      onChange={(e) => onChange(e.target.value as Id)}
    >
      {options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** The button that shows or hides a list's filter panel (`controls` is the panel's id). */
export function FiltersToggle({
  open,
  controls,
  onToggle,
}: {
  open: boolean;
  controls: string;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      className={`btn btn-ghost ${styles.filterToggle}`}
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      <SlidersHorizontal size={16} aria-hidden /> Filters
    </button>
  );
}
