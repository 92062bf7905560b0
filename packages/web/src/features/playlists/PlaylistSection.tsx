import type { AudioFile } from '@mesmer/shared/api/files';
import {
  EXPERIENCE_LEVELS,
  PAGE_SIZES,
  PLAYLIST_SORT_OPTIONS,
  type PlaylistSortId,
} from '@mesmer/shared/domain/library-display';
import { offsetOfPage, pageOfOffset } from '@mesmer/shared/domain/pagination';
import { useQuery } from '@tanstack/react-query';
import { Search, SlidersHorizontal, X } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { useSearchParams } from 'react-router';
import { FileSearchPicker } from '../../components/FileSearchPicker.tsx';
import styles from '../../components/library.module.css';
import { PlaylistList } from '../../components/PlaylistList.tsx';
import { useSearchText } from '../../components/useSearchText.ts';
import { Card, ErrorState, Pagination, SectionHeader } from '../../ui/index.ts';
import { type PlaylistsParams, playlistsQuery } from './api.ts';
import {
  changePlaylistSearch,
  type PlaylistSearch,
  playlistSearchQuery,
  readPlaylistSearch,
  writePlaylistSearch,
} from './playlist-search.ts';

/** Names of files picked for the include-files filter; the URL only holds their ids. */
const pickedFileNames = new Map<number, string>();

const toggle = (ids: number[], id: number) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]);

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
    setParams((current) => writePlaylistSearch(current, prefix, changePlaylistSearch(search, patch)), {
      replace,
    });
  const { text, setText, commitNow } = useSearchText(search.q, (q) => change({ q }, true));
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
        <div className={styles.searchBox}>
          <Search size={16} aria-hidden />
          <input
            className="input"
            type="search"
            aria-label={`Search ${typeof title === 'string' ? title : 'playlists'}`}
            placeholder="Search playlists"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') commitNow();
            }}
          />
        </div>
        <select
          className={`select ${styles.sortSelect}`}
          aria-label="Sort by"
          value={search.sort}
          onChange={(e) => change({ sort: e.target.value as PlaylistSortId })}
        >
          {PLAYLIST_SORT_OPTIONS.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className={`btn btn-ghost ${styles.filterToggle}`}
          aria-expanded={search.filtersOpen}
          aria-controls={filtersId}
          onClick={() => change({ filtersOpen: !search.filtersOpen })}
        >
          <SlidersHorizontal size={16} aria-hidden /> Filters
        </button>
      </div>
      {search.filtersOpen && (
        <div className={styles.filters} id={filtersId}>
          <fieldset className={styles.filterGroup}>
            <legend>Experience level</legend>
            <div className={styles.chipChoices}>
              {EXPERIENCE_LEVELS.map((label, i) => (
                <button
                  key={label}
                  type="button"
                  className={styles.chipChoice}
                  aria-pressed={search.levels.includes(i + 1)}
                  onClick={() => change({ levels: toggle(search.levels, i + 1) })}
                >
                  {label}
                </button>
              ))}
            </div>
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
      {list.isError ? (
        <ErrorState message="The playlists could not be loaded." onRetry={list.refetch} />
      ) : (
        <>
          <PlaylistList
            label={typeof title === 'string' ? title : 'Playlists'}
            playlists={list.data?.playlists}
            emptyText="No playlists found."
            showNewTag
          />
          <Pagination
            pageOffset={offsetOfPage(search.page, PAGE_SIZES.playlists)}
            pageSize={PAGE_SIZES.playlists}
            totalItems={list.data?.totalItems ?? 0}
            onChange={(o) => change({ page: pageOfOffset(o, PAGE_SIZES.playlists) })}
          />
        </>
      )}
    </Card>
  );
}
