import { formatDuration } from '@mesmer/shared/domain/durations';
import { FILE_TYPES, fileTypeLabel } from '@mesmer/shared/domain/file-types';
import { GENERATOR_DEFAULT_DURATION_MS, GENERATOR_MAX_DURATION_MS } from '@mesmer/shared/domain/generator';
import { useQuery } from '@tanstack/react-query';
import { Play, Wand2 } from 'lucide-react';
import { type Dispatch, type FormEvent, type SetStateAction, useId, useState } from 'react';
import { type GenerateRun, generatedPlaylistQuery } from '../../api/generator.ts';
import { tagsQuery } from '../../api/tags.ts';
import { ApiError } from '../../lib/api-client.ts';
import { ChipChoices, toggleChoice } from '../../library/ChipChoices.tsx';
import { FileTypeIcon } from '../../library/FileTypeIcon.tsx';
import styles from '../../library/library.module.css';
import { TrackList } from '../../library/TrackList.tsx';
import { TriggerPicker } from '../../library/TriggerPicker.tsx';
import { play } from '../../player/index.ts';
import { Card, EmptyState, LoadingState, SectionHeader, Switch, usePageTitle } from '../../ui/index.ts';
import page from './generator.module.css';

const SLIDER_STEP_MS = 15 * 60_000;

/** A trigger picker's add and remove for a list of ids kept in state. */
const idListEdits = (set: Dispatch<SetStateAction<number[]>>) => ({
  onAdd: (id: number) => set((ids) => [...ids, id]),
  onRemove: (id: number) => set((ids) => ids.filter((x) => x !== id)),
});

/** /playlist/generate: settings on one side, the generated playlist on the other. */
export default function GeneratePage() {
  usePageTitle('Generate Playlist');
  const sliderId = useId();
  const tags = useQuery(tagsQuery);
  const [fileTypes, setFileTypes] = useState<number[]>([]);
  const [includeTriggers, setIncludeTriggers] = useState<number[]>([]);
  const [hideTriggers, setHideTriggers] = useState<number[]>([]);
  const [maxDuration, setMaxDuration] = useState(GENERATOR_DEFAULT_DURATION_MS);
  const [includeInduction, setIncludeInduction] = useState(true);
  const [includeAwakener, setIncludeAwakener] = useState(true);
  const [includeLoops, setIncludeLoops] = useState(false);
  const [communityFiles, setCommunityFiles] = useState(false);
  const [request, setRequest] = useState<GenerateRun | null>(null);
  const result = useQuery(generatedPlaylistQuery(request));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setRequest((r) => ({
      params: {
        fileTypes: fileTypes.length ? fileTypes : undefined,
        includeTriggers: includeTriggers.length ? includeTriggers : undefined,
        hideTriggers: hideTriggers.length ? hideTriggers : undefined,
        maxDuration,
        includeInduction,
        includeAwakener,
        includeLoops,
        communityFiles,
      },
      run: (r?.run ?? 0) + 1,
    }));
  };

  const types = tags.data?.fileTypes ?? FILE_TYPES;
  return (
    <>
      <div className={styles.pageHeader}>
        <div>
          <h1>Generate Playlist</h1>
          <p className={styles.lead}>Pick what you want to hear and how long; we put a session together.</p>
        </div>
      </div>
      <div className={styles.columns}>
        <Card>
          <form onSubmit={submit} className={page.form}>
            <fieldset className={styles.filterGroup}>
              <legend>File types</legend>
              <ChipChoices
                choices={types.map((t) => ({
                  id: t.id,
                  label: fileTypeLabel(t.name),
                  icon: <FileTypeIcon typeId={t.id} />,
                }))}
                chosen={fileTypes}
                onToggle={(id) => setFileTypes((ids) => toggleChoice(ids, id))}
              />
            </fieldset>
            <div className={styles.filterGroup}>
              <TriggerPicker
                label="Include triggers"
                showLabel
                selected={includeTriggers}
                exclude={hideTriggers}
                {...idListEdits(setIncludeTriggers)}
              />
            </div>
            <div className={styles.filterGroup}>
              <TriggerPicker
                label="Hide triggers"
                showLabel
                selected={hideTriggers}
                exclude={includeTriggers}
                {...idListEdits(setHideTriggers)}
              />
            </div>
            <div className={page.slider}>
              <label htmlFor={sliderId} className={styles.filterLabel}>
                Max length
              </label>
              <output htmlFor={sliderId} className={page.sliderValue}>
                {maxDuration === 0 ? '0m' : formatDuration(maxDuration)}
              </output>
              <input
                id={sliderId}
                type="range"
                min={0}
                max={GENERATOR_MAX_DURATION_MS}
                step={SLIDER_STEP_MS}
                value={maxDuration}
                onChange={(e) => setMaxDuration(Number(e.target.value))}
                aria-valuetext={formatDuration(maxDuration)}
              />
            </div>
            <div>
              <Switch label="Include induction" checked={includeInduction} onChange={setIncludeInduction} />
              <Switch label="Include awakener" checked={includeAwakener} onChange={setIncludeAwakener} />
              <Switch label="Include loops" checked={includeLoops} onChange={setIncludeLoops} />
              <Switch
                label="Include files from other creators"
                checked={communityFiles}
                onChange={setCommunityFiles}
              />
            </div>
            <button type="submit" className="btn btn-primary" disabled={result.isFetching}>
              <Wand2 size={18} aria-hidden /> Generate
            </button>
          </form>
        </Card>
        <Card>
          <SectionHeader
            title="Your playlist"
            actions={
              result.data && (
                <button
                  type="button"
                  className="btn btn-primary btn-small"
                  onClick={() => play({ files: result.data.files, startIndex: 0, source: 'generator' })}
                >
                  <Play size={16} aria-hidden /> Play
                </button>
              )
            }
          />
          {request === null ? (
            <EmptyState>Choose your settings and press Generate.</EmptyState>
          ) : result.isFetching ? (
            <LoadingState label="Generating" />
          ) : result.isError ? (
            <p className={page.error} role="alert">
              {result.error instanceof ApiError && result.error.status === 404
                ? 'No playlist could be generated with the current settings.'
                : 'An error occurred. Please try again with different settings.'}
            </p>
          ) : result.data ? (
            <>
              <p className={styles.resultsMeta}>
                <span>
                  {result.data.files.length} {result.data.files.length === 1 ? 'file' : 'files'}
                </span>
                <span>Total time: {formatDuration(result.data.totalDuration)}</span>
              </p>
              <TrackList label="Generated playlist" files={result.data.files} />
            </>
          ) : null}
        </Card>
      </div>
    </>
  );
}
