import type { AudioFile } from '@mesmer/shared/api/files';
import { PAGE_SIZES, PLAYLIST_SORT_OPTIONS } from '@mesmer/shared/domain/library-display';
import { offsetOfPage, pageOfOffset } from '@mesmer/shared/domain/pagination';
import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { useSearchParams } from 'react-router';
import { type PlaylistsParams, playlistsQuery } from '../../api/playlists.ts';
import { changePagedSearch } from '../../lib/search-params.ts';
import { ChipChoices, toggleChoice } from '../../library/ChipChoices.tsx';
import { EXPERIENCE_LEVEL_CHOICES } from '../../library/ExperienceLevels.tsx';
import styles from '../../library/library.module.css';
import { PagedPlaylistList } from '../../library/PlaylistList.tsx';
import { FiltersToggle, SearchBox, SortSelect } from '../../library/SearchControls.tsx';
import { Card, SectionHeader } from '../../ui/index.ts';
import { FileSearchPicker } from './FileSearchPicker.tsx';
import {
  type PlaylistSearch,
  playlistSearchQuery,
  readPlaylistSearch,
  writePlaylistSearch,
} from './playlist-search.ts';

/** Names of files picked for the include-files filter; the URL only holds their ids. */
const pickedFileNames = new Map<number, string>();

/** One Playlists page section: search, sort, filters and 12 results per page. */
export function PlaylistSection({
  title,
  intro,
  prefix,
  scope,
}: {
  title: ReactNode;
  intro: string;
  /** URL parameter prefix, so both sections keep their own state. */
  prefix: string;
  scope: PlaylistsParams;
}) {
  const filtersId = useId();
  const [params, setParams] = useSearchParams();
  const search = readPlaylistSearch(params, prefix);
  const change = (patch: Partial<PlaylistSearch>, replace = false) =>
    setParams((current) => writePlaylistSearch(current, prefix, changePagedSearch(search, patch)), {
      replace,
    });
  const list = useQuery(playlistsQuery(playlistSearchQuery(search, scope)));

  const includeFile = (file: AudioFile) => {
    pickedFileNames.set(file.id, file.name);
    if (!search.files.includes(file.id)) change({ files: [...search.files, file.id] });
  };

  return (
    <Card>
      <SectionHeader title={title} />
      <p className="muted">{intro}</p>
      <div className={styles.toolbar}>
        <SearchBox
          value={search.q}
          onCommit={(q) => change({ q }, true)}
          label={`Search ${typeof title === 'string' ? title : 'playlists'}`}
          placeholder="Search playlists"
        />
        <SortSelect
          options={PLAYLIST_SORT_OPTIONS}
          value={search.sort}
          onChange={(sort) => change({ sort })}
        />
        <FiltersToggle
          open={search.filtersOpen}
          controls={filtersId}
          onToggle={() => change({ filtersOpen: !search.filtersOpen })}
        />
      </div>
      {search.filtersOpen && (
        <div className={styles.filters} id={filtersId}>
          <fieldset className={styles.filterGroup}>
            <legend>Experience level</legend>
            <ChipChoices
              choices={EXPERIENCE_LEVEL_CHOICES}
              chosen={search.levels}
              onToggle={(level) => change({ levels: toggleChoice(search.levels, level) })}
            />
          </fieldset>
          <div className={styles.filterGroup}>
            {search.files.length > 0 && (
              <>
                <p className={styles.filterLabel}>Includes files</p>
                <ul className={`${styles.selectedChips} ${styles.chipList}`} style={{ marginBottom: 10 }}>
                  {search.files.map((id) => (
                    <li key={id} className={styles.selectedChip}>
                      {pickedFileNames.get(id) ?? `File #${id}`}
                      <button
                        type="button"
                        className="icon-btn"
                        aria-label={`Remove ${pickedFileNames.get(id) ?? `file ${id}`}`}
                        onClick={() => change({ files: search.files.filter((f) => f !== id) })}
                      >
                        <X size={14} />
                      </button>
                    </li>
                  ))}
                </ul>
              </>
            )}
            <FileSearchPicker
              label="Playlists that include a file"
              pageSize={PAGE_SIZES.includeFilesSearch}
              excludeIds={search.files}
              onPick={includeFile}
            />
          </div>
        </div>
      )}
      <PagedPlaylistList
        list={list}
        label={typeof title === 'string' ? title : 'Playlists'}
        emptyText="No playlists found."
        showNewTag
        pageOffset={offsetOfPage(search.page, PAGE_SIZES.playlists)}
        pageSize={PAGE_SIZES.playlists}
        onPageChange={(o) => change({ page: pageOfOffset(o, PAGE_SIZES.playlists) })}
      />
    </Card>
  );
}
