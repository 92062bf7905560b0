import type { DraggableProvided } from '@hello-pangea/dnd';
import type { AudioFile } from '@mesmer/shared/api/files';
import { formatDuration } from '@mesmer/shared/domain/durations';
import { isNewFile } from '@mesmer/shared/domain/file-new';
import { isMusicType } from '@mesmer/shared/domain/file-types';
import { isOwnPrivateFile, trackNumberLabel } from '@mesmer/shared/domain/library-display';
import { EyeOff, GripVertical, Info, Lock, Music, Vibrate } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { useCurrentUser } from '../api/auth.ts';
import { play, useCurrentFileId } from '../player/index.ts';
import { Tag } from '../ui/index.ts';
import styles from './TrackList.module.css';
import { TrackPopup } from './TrackPopup.tsx';
import { type Censor, useCensor } from './useCensor.ts';

/** Only a playlist being edited drags its rows; the drag-and-drop library is most of the list's code. */
const ReorderableRows = lazy(() => import('./ReorderableRows.tsx'));

export type TrackFile = AudioFile & { disabled?: boolean };

export interface TrackListProps {
  files: readonly TrackFile[];
  /** What the list is, for screen readers ('Files', 'Playlist files'). */
  label: string;
  /** Added to every row number, so a later page continues the count. */
  numberOffset?: number;
  /** Plays a track; by default the whole list is queued starting at it. */
  onPlay?: (index: number) => void;
  /** Disabled-tracks mode: a click toggles the track's disabled flag instead of playing. */
  onToggleDisabled?: (index: number) => void;
  /** Drag reordering; rows can be dragged when given. */
  onReorder?: (from: number, to: number) => void;
  /** Shown in the track popup when the viewer owns the playlist. */
  onRemove?: (index: number) => void;
  /** Instead of the empty-playlist notice. */
  empty?: ReactNode;
}

/**
 * The track list used everywhere: number (or eye-slash for the viewer's own hidden
 * files), name, author, haptics and music icons, 'New!' and duration. Locked tracks
 * open the track popup instead of playing; right-click or the info button opens it too.
 */
export function TrackList({
  files,
  label,
  numberOffset = 0,
  onPlay,
  onToggleDisabled,
  onReorder,
  onRemove,
  empty,
}: TrackListProps) {
  const [popupIndex, setPopupIndex] = useState<number | null>(null);
  const currentFileId = useCurrentFileId();
  // Read once for the list, not once per row: each read is a subscription to the signed-in user.
  const viewerId = useCurrentUser().user?.id;
  const censor = useCensor();

  if (files.length === 0) return <>{empty ?? <EmptyPlaylist />}</>;

  const activate = (index: number) => {
    if (onToggleDisabled) return onToggleDisabled(index);
    if (files[index].isLocked) return setPopupIndex(index);
    if (onPlay) return onPlay(index);
    play({ files: [...files], startIndex: index });
  };

  const keys = rowKeys(files);
  const row = (file: TrackFile, index: number, drag?: DraggableProvided) => (
    <TrackRow
      key={keys[index]}
      file={file}
      number={numberOffset + index + 1}
      current={file.id === currentFileId}
      viewerId={viewerId}
      censor={censor}
      toggles={!!onToggleDisabled}
      onActivate={() => activate(index)}
      onInfo={() => setPopupIndex(index)}
      drag={drag}
    />
  );

  const popup = (
    <TrackPopup
      file={popupIndex === null ? null : (files[popupIndex] ?? null)}
      onClose={() => setPopupIndex(null)}
      onRemove={onRemove && popupIndex !== null ? () => onRemove(popupIndex) : undefined}
    />
  );

  const rows = (
    <ol className={styles.list} aria-label={label}>
      {files.map((file, index) => row(file, index))}
    </ol>
  );
  return (
    <>
      {onReorder ? (
        <Suspense fallback={rows}>
          <ReorderableRows
            label={label}
            keys={keys}
            row={(index, drag) => row(files[index], index, drag)}
            onReorder={onReorder}
          />
        </Suspense>
      ) : (
        rows
      )}
      {popup}
    </>
  );
}

/** Stable row keys: the file id, with a counter when a file appears more than once. */
function rowKeys(files: readonly TrackFile[]): string[] {
  const seen = new Map<number, number>();
  return files.map((f) => {
    const n = seen.get(f.id) ?? 0;
    seen.set(f.id, n + 1);
    return n === 0 ? String(f.id) : `${f.id}.${n}`;
  });
}

function TrackRow({
  file,
  number,
  current,
  viewerId,
  censor,
  toggles,
  onActivate,
  onInfo,
  drag,
}: {
  file: TrackFile;
  number: number;
  /** The track in the player right now. */
  current: boolean;
  /** The signed-in user's id: their own private files show an eye-slash instead of a number. */
  viewerId: number | undefined;
  censor: Censor;
  toggles: boolean;
  onActivate: () => void;
  onInfo: () => void;
  drag?: DraggableProvided;
}) {
  const name = censor.text(
    file.name,
    file.triggers.map((t) => t.name),
  );
  const hidden = isOwnPrivateFile(file, viewerId);
  const rowClass = [
    styles.row,
    file.disabled ? styles.disabled : '',
    drag ? styles.draggable : '',
    current ? styles.current : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <li className={rowClass} ref={drag?.innerRef} {...drag?.draggableProps}>
      {drag && (
        <button type="button" className={styles.grip} {...drag.dragHandleProps} aria-label={`Drag ${name}`}>
          <GripVertical size={18} aria-hidden />
        </button>
      )}
      <span className={styles.number}>
        {hidden ? <EyeOff size={16} aria-label="Only visible to you" role="img" /> : trackNumberLabel(number)}
      </span>
      <div className={styles.main}>
        <button
          type="button"
          className={styles.name}
          onClick={onActivate}
          onContextMenu={(e) => {
            e.preventDefault();
            onInfo();
          }}
          aria-pressed={toggles ? !file.disabled : undefined}
          aria-current={current || undefined}
          title={toggles ? (file.disabled ? 'Enable this track' : 'Disable this track') : undefined}
        >
          {file.isLocked && <Lock size={14} className={styles.lock} aria-label="Locked" role="img" />}
          <span className={styles.nameText}>{name}</span>
          {file.disabled && <span className="visually-hidden"> (disabled)</span>}
        </button>
        <Link className={styles.author} to={`/user/${encodeURIComponent(file.author.username)}`}>
          {file.author.username}
        </Link>
      </div>
      <span className={styles.icons}>
        {file.hasHaptics && <Vibrate size={16} aria-label="Haptics" role="img" />}
        {isMusicType(file.fileType) && <Music size={16} aria-label="Music" role="img" />}
      </span>
      <span className={styles.newTag}>
        {isNewFile(file.releaseDate, Date.now()) && <Tag tone="accent">New!</Tag>}
      </span>
      <span className={styles.duration}>{formatDuration(file.duration)}</span>
      <button
        type="button"
        className={`icon-btn ${styles.info}`}
        aria-label={`About ${name}`}
        onClick={onInfo}
      >
        <Info size={18} />
      </button>
    </li>
  );
}

/** 'This playlist has no files!' with how to add some. */
function EmptyPlaylist() {
  return (
    <div className={styles.empty}>
      <p className={styles.emptyTitle}>This playlist has no files!</p>
      <p className="muted">
        To add files, open a file's details with the <Info size={14} aria-label="info" /> button (or
        right-click it) on the <Link to="/files">Files page</Link> and choose Add to playlist. The playlist's
        owner can also use Add Files while editing.
      </p>
    </div>
  );
}
