import type { Playlist } from '@mesmer/shared/api/playlists';
import type { Series } from '@mesmer/shared/api/series';
import { formatDuration } from '@mesmer/shared/domain/durations';
import { enabledDuration, firstEnabledIndex } from '@mesmer/shared/domain/library-display';
import { useQuery } from '@tanstack/react-query';
import { Lock, Play, RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { useCurrentUser } from '../../api/auth.ts';
import { planQuery, useSavePlanProgress } from '../../api/plans.ts';
import { ApiError } from '../../lib/api-client.ts';
import { KeepOffline } from '../../library/offline/index.ts';
import { TrackList } from '../../library/TrackList.tsx';
import { play, useLocalPlanPosition } from '../../player/index.ts';
import { ConfirmPopup, ErrorState, LoadingState, toast, usePageTitle } from '../../ui/index.ts';
import page from './plans.module.css';

/** /plan/{uuid}: the plan's days in order; days past the viewer's position are locked. */
export default function PlanPage() {
  const { uuid = '' } = useParams();
  // Fetched even when the browser says it is offline: the service worker answers for a kept plan.
  const plan = useQuery({ ...planQuery(uuid), networkMode: 'offlineFirst' });
  usePageTitle(plan.data?.name ?? 'Training Plan');

  if (plan.isPending) return <LoadingState label="Loading training plan" />;
  if (plan.isError) {
    if (plan.error instanceof ApiError && (plan.error.status === 404 || plan.error.status === 400)) {
      return <Navigate to="/404" replace />;
    }
    return <ErrorState message="The training plan could not be loaded." onRetry={plan.refetch} />;
  }
  if (!plan.data) return <Navigate to="/404" replace />;
  return <PlanView plan={plan.data} />;
}

function PlanView({ plan }: { plan: Series }) {
  const { user } = useCurrentUser();
  const [position, setPosition] = useState(plan.position);
  // Days finished in the player (signed out: kept in this browser session) move the position on.
  const playedPosition = useLocalPlanPosition(plan.id);
  useEffect(() => {
    if (playedPosition !== undefined) setPosition(playedPosition);
  }, [playedPosition]);
  const [confirmReset, setConfirmReset] = useState(false);
  const save = useSavePlanProgress();
  const dayRefs = useRef<(HTMLElement | null)[]>([]);
  const days = plan.playlists;

  // Open at the saved day (capped at the last one).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on first show
  useEffect(() => {
    const target = Math.min(plan.position, days.length) - 1;
    if (target > 0) dayRefs.current[target]?.scrollIntoView({ block: 'start' });
  }, []);

  const planRef = (dayIndex: number, at = position) => ({
    id: plan.id,
    uuid: plan.uuid,
    name: plan.name,
    dayIndex,
    dayCount: days.length,
    position: at,
  });
  const playlistRef = (day: Playlist) => ({ id: day.id, uuid: day.uuid, name: day.name });

  const playTrack = (day: Playlist, dayIndex: number, startIndex: number) => {
    setPosition(dayIndex + 1);
    play({ files: day.files, startIndex, playlist: playlistRef(day), plan: planRef(dayIndex, dayIndex + 1) });
  };

  const playDay = (day: Playlist, dayIndex: number) => {
    const start = firstEnabledIndex(day.files);
    if (start >= 0) {
      play({ files: day.files, startIndex: start, playlist: playlistRef(day), plan: planRef(dayIndex) });
    }
  };

  const reset = () =>
    save.mutate(
      { id: plan.id, playlistIndex: 1 },
      {
        onSuccess: () => {
          setPosition(1);
          setConfirmReset(false);
          toast('success', 'Progress reset!');
        },
        onError: (err) => {
          setConfirmReset(false);
          toast('error', 'Could not reset progress.', err.message);
        },
      },
    );

  return (
    <>
      <header className={page.planHeader}>
        <div>
          <p className={page.eyebrow}>Training plan</p>
          <h1>{plan.name}</h1>
          <p className="muted">
            by <Link to={`/user/${encodeURIComponent(plan.creator.username)}`}>{plan.creator.username}</Link>{' '}
            · {days.length} {days.length === 1 ? 'day' : 'days'}
          </p>
          {plan.description && <p className={page.planIntro}>{plan.description}</p>}
          <KeepOffline
            target={{ kind: 'plan', uuid: plan.uuid, name: plan.name }}
            files={days.flatMap((day) => day.files)}
          />
        </div>
        {user && (
          <button type="button" className="btn btn-ghost" onClick={() => setConfirmReset(true)}>
            <RotateCcw size={16} aria-hidden /> Reset Progress
          </button>
        )}
      </header>

      <ol className={page.days} aria-label="Days">
        {days.map((day, i) => {
          const locked = i >= position;
          return (
            <li
              key={day.id}
              ref={(el) => {
                dayRefs.current[i] = el;
              }}
              className={`${page.day} ${locked ? page.dayLocked : ''} ${i === position - 1 ? page.dayCurrent : ''}`}
              aria-label={`Day ${i + 1}: ${day.name}`}
            >
              <div className={page.dayHeader}>
                <span className={page.dayNumber}>Day {i + 1}</span>
                <div className={page.dayTitle}>
                  <h2>{day.name}</h2>
                  <span className="muted">{formatDuration(enabledDuration(day.files))}</span>
                </div>
                <button
                  type="button"
                  className="btn btn-primary btn-small"
                  onClick={() => playDay(day, i)}
                  disabled={locked || firstEnabledIndex(day.files) < 0}
                  aria-label={`Play day ${i + 1}`}
                >
                  <Play size={16} aria-hidden /> Play
                </button>
              </div>
              <div className={page.dayContent}>
                <div className={page.dayBody} inert={locked}>
                  <TrackList
                    label={`Day ${i + 1} files`}
                    files={day.files}
                    onPlay={(index) => playTrack(day, i, index)}
                  />
                </div>
                {locked && (
                  <div className={page.lockOverlay}>
                    <Lock size={20} aria-hidden />
                    <span>Complete the above stages to unlock!</span>
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ol>

      <ConfirmPopup
        open={confirmReset}
        title="Reset progress?"
        message="Your progress in this plan goes back to day 1."
        confirmLabel="Reset"
        danger
        busy={save.isPending}
        onCancel={() => setConfirmReset(false)}
        onConfirm={reset}
      />
    </>
  );
}
