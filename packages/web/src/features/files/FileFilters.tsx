import { FILE_TYPES, fileTypeLabel } from '@mesmer/shared/domain/file-types';
import {
  DURATION_FILTERS,
  type DurationFilterId,
  type FilesTab,
  fileTypesForTab,
} from '@mesmer/shared/domain/library-display';
import { useQuery } from '@tanstack/react-query';
import { creatorsQuery, tagsQuery } from '../../api/tags.ts';
import { ChipChoices, toggleChoice } from '../../library/ChipChoices.tsx';
import { FileTypeIcon } from '../../library/FileTypeIcon.tsx';
import styles from '../../library/library.module.css';
import { Spinner, Switch } from '../../ui/index.ts';

export interface FileFilterValues {
  tab: FilesTab;
  duration: DurationFilterId | null;
  types: number[];
  creators: number[];
  showLocked: boolean;
  showNonHaptics: boolean;
}

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
        <ChipChoices
          choices={DURATION_FILTERS}
          chosen={values.duration ? [values.duration] : []}
          onToggle={(id) => onChange({ duration: values.duration === id ? null : id })}
        />
      </fieldset>
      <fieldset className={styles.filterGroup}>
        <legend>File types</legend>
        <ChipChoices
          choices={types.map((t) => ({
            id: t.id,
            label: fileTypeLabel(t.name),
            icon: <FileTypeIcon typeId={t.id} />,
          }))}
          chosen={values.types}
          onToggle={(id) => onChange({ types: toggleChoice(values.types, id) })}
        />
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
          <ChipChoices
            choices={creators.data.map((c) => ({ id: c.id, label: c.username }))}
            chosen={values.creators}
            onToggle={(id) => onChange({ creators: toggleChoice(values.creators, id) })}
          />
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
