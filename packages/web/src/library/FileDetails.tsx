import type { AudioFile } from '@mesmer/shared/api/files';
import { formatDuration } from '@mesmer/shared/domain/durations';
import { FILE_TYPES, fileTypeLabel, isMusicType } from '@mesmer/shared/domain/file-types';
import { formatPlays } from '@mesmer/shared/domain/library-display';
import { mediumDate } from '@mesmer/shared/domain/number-format';
import { triggerSlug } from '@mesmer/shared/domain/triggers';
import { CalendarDays, Clock, Headphones, Lock, Music, Vibrate } from 'lucide-react';
import { Link } from 'react-router';
import { Tag } from '../ui/index.ts';
import { FileNotices } from './FileNotices.tsx';
import styles from './library.module.css';
import { useCensor } from './useCensor.ts';

export function fileTypeName(id: number): string {
  const type = FILE_TYPES.find((t) => t.id === id);
  return type ? fileTypeLabel(type.name) : 'File';
}

/** The file's details: author, facts, triggers it trains and uses, tags and its notices. */
export function FileDetails({ file }: { file: AudioFile }) {
  const censor = useCensor();
  const trains = file.triggers.filter((t) => t.trains);
  const uses = file.triggers.filter((t) => !t.trains);
  return (
    <div className={styles.fileDetails}>
      <p className={styles.byline}>
        by <Link to={`/user/${encodeURIComponent(file.author.username)}`}>{file.author.username}</Link>
      </p>
      <ul className={styles.facts} aria-label="Details">
        <li>
          <Tag tone="accent">{fileTypeName(file.fileType)}</Tag>
        </li>
        <li>
          <Clock size={15} aria-hidden /> {formatDuration(file.duration)}
        </li>
        <li>
          <Headphones size={15} aria-hidden /> {formatPlays(file.plays)} plays
        </li>
        <li>
          <CalendarDays size={15} aria-hidden /> {mediumDate(new Date(file.releaseDate))}
        </li>
        {file.hasHaptics && (
          <li>
            <Vibrate size={15} aria-hidden /> Haptics
          </li>
        )}
        {isMusicType(file.fileType) && (
          <li>
            <Music size={15} aria-hidden /> Music
          </li>
        )}
        {file.isLocked && (
          <li>
            <Lock size={15} aria-hidden /> Locked
          </li>
        )}
      </ul>
      {(trains.length > 0 || uses.length > 0) && (
        <div className={styles.triggerGroups}>
          {trains.length > 0 && <TriggerLinks label="Trains" triggers={trains} display={censor.trigger} />}
          {uses.length > 0 && <TriggerLinks label="Uses" triggers={uses} display={censor.trigger} />}
        </div>
      )}
      {file.tags.length > 0 && (
        <div className={styles.tagRow}>
          {file.tags.map((t) => (
            <Tag key={t.id}>{t.name}</Tag>
          ))}
        </div>
      )}
      <FileNotices file={file} />
    </div>
  );
}

function TriggerLinks({
  label,
  triggers,
  display,
}: {
  label: string;
  triggers: { id: number; name: string }[];
  display: (name: string) => string;
}) {
  return (
    <div className={styles.triggerGroup}>
      <span className={styles.triggerLabel}>{label}</span>
      <ul className={styles.chipList}>
        {triggers.map((t) => (
          <li key={t.id}>
            <Link className={styles.chip} to={`/trigger/${encodeURIComponent(triggerSlug(t.name))}`}>
              {display(t.name)}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
