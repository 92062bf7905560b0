import { FILE_TYPES, fileTypeLabel } from '@mesmer/shared/domain/file-types';
import {
  DURATION_FILTERS,
  type DurationFilterId,
  type FilesTab,
  fileTypesForTab,
} from '@mesmer/shared/domain/library-display';
import { useQuery } from '@tanstack/react-query';
import { creatorsQuery, tagsQuery } from '../features/files/api.ts';
import { Spinner, Switch } from '../ui/index.ts';
import styles from './library.module.css';

export interface FileFilterValues {
  tab: FilesTab;
  duration: DurationFilterId | null;
  types: number[];
  creators: number[];
  showLocked: boolean;
  showNonHaptics: boolean;
}

const toggle = (ids: number[], id: number) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]);

/** The Files page filters: duration, the tab's file types, creators, locked and non-haptics files. */
export function FileFilters({
  values,
  onChange,
}: {
  values: FileFilterValues;
  onChange: (patch: Partial<FileFilterValues>) => void;
}) {
  const tags = useQuery(tagsQuery);
  const creators = useQuery(creatorsQuery);
  const types = fileTypesForTab(tags.data?.fileTypes ?? FILE_TYPES, values.tab);

  return (
    <div className={styles.filters} id="file-filters">
      <fieldset className={styles.filterGroup}>
        <legend>Duration</legend>
        <div className={styles.chipChoices}>
          {DURATION_FILTERS.map((d) => (
            <button
              key={d.id}
              type="button"
              className={styles.chipChoice}
              aria-pressed={values.duration === d.id}
              onClick={() => onChange({ duration: values.duration === d.id ? null : d.id })}
            >
              {d.label}
            </button>
          ))}
        </div>
      </fieldset>
      <fieldset className={styles.filterGroup}>
        <legend>File types</legend>
        <div className={styles.chipChoices}>
          {types.map((t) => (
            <button
              key={t.id}
              type="button"
              className={styles.chipChoice}
              aria-pressed={values.types.includes(t.id)}
              onClick={() => onChange({ types: toggle(values.types, t.id) })}
            >
              {fileTypeLabel(t.name)}
            </button>
          ))}
        </div>
      </fieldset>
      <fieldset className={styles.filterGroup}>
        <legend>Creators</legend>
        {creators.isPending ? (
          <Spinner size={18} label="Loading creators" />
        ) : creators.isError ? (
          <p className="muted">The creators could not be loaded.</p>
        ) : creators.data.length === 0 ? (
          <p className="muted">No creators yet.</p>
        ) : (
          <div className={styles.chipChoices}>
            {creators.data.map((c) => (
              <button
                key={c.id}
                type="button"
                className={styles.chipChoice}
                aria-pressed={values.creators.includes(c.id)}
                onClick={() => onChange({ creators: toggle(values.creators, c.id) })}
              >
                {c.username}
              </button>
            ))}
          </div>
        )}
      </fieldset>
      <div className={styles.filterSwitches}>
        <Switch
          label="Show locked files"
          checked={values.showLocked}
          onChange={(showLocked) => onChange({ showLocked })}
        />
        <Switch
          label="Show files without haptics"
          checked={values.showNonHaptics}
          onChange={(showNonHaptics) => onChange({ showNonHaptics })}
        />
      </div>
    </div>
  );
}
