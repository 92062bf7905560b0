import type { AudioFile } from '@mesmer/shared/api/files';
import { AlertTriangle, CircleCheck, Download, RefreshCw } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { ConfirmPopup, Spinner, toast } from '../../ui/index.ts';
import {
  canKeepOffline,
  dismissFailure,
  type KeepError,
  type KeepPlan,
  measureKeep,
  mediaOf,
  refreshIndex,
  removeKept,
  startKeep,
  useOfflineState,
} from './keeper.ts';
import styles from './offline.module.css';
import { formatBytes, OFFLINE_INDEX_KEY, type OfflineTarget } from './offline-index.ts';

/** Cache Storage is there and the service worker controls the page (it is what answers offline). */
function useCanKeepOffline(): boolean {
  const [can, setCan] = useState(canKeepOffline);
  useEffect(() => {
    const sw = globalThis.navigator?.serviceWorker;
    if (!sw) return;
    const update = () => setCan(canKeepOffline());
    sw.addEventListener('controllerchange', update);
    return () => sw.removeEventListener('controllerchange', update);
  }, []);
  return can;
}

function failureText(err: KeepError, plan: KeepPlan | null): string {
  if (err.reason === 'quota') {
    const size = plan ? ` for ${formatBytes(plan.downloadBytes)}` : '';
    return `There is not enough storage space on this device${size}. Remove other kept playlists or free up space, then try again.`;
  }
  return err.message;
}

/**
 * "Keep offline" for a playlist or training plan: shows the size and asks first, then a
 * cancellable progress bar, then "Kept offline · size" with Remove (and Update when the playlist
 * changed since). Shown only where the service worker can play kept files without a network.
 */
export function KeepOffline({ target, files }: { target: OfflineTarget; files: readonly AudioFile[] }) {
  const supported = useCanKeepOffline();
  const { kept, download, failed } = useOfflineState(target);
  const [measuring, setMeasuring] = useState(false);
  const [plan, setPlan] = useState<KeepPlan | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [measureFailed, setMeasureFailed] = useState<KeepError | null>(null);
  const [removing, setRemoving] = useState(false);
  const labelId = useId();

  useEffect(() => {
    refreshIndex();
    const onStorage = (event: StorageEvent) => {
      if (event.key === OFFLINE_INDEX_KEY) refreshIndex();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  if (!supported) return null;

  const measure = () => {
    setMeasuring(true);
    setMeasureFailed(null);
    dismissFailure(target);
    measureKeep(target)
      .then((measured) => {
        setPlan(measured);
        setConfirming(true);
      })
      .catch((err: KeepError) => setMeasureFailed(err))
      .finally(() => setMeasuring(false));
  };

  const confirm = () => {
    if (!plan) return;
    setConfirming(false);
    void startKeep(plan).then((item) => {
      if (item) toast('success', 'Kept offline', `“${target.name}” now plays without a network.`);
    });
  };

  const remove = () => {
    setRemoving(true);
    removeKept(target)
      .then(() => toast('success', 'Removed from this device.'))
      .catch(() => toast('error', 'The offline copy could not be removed.'))
      .finally(() => setRemoving(false));
  };

  const error = failed ?? measureFailed;
  const keptKeys = kept ? new Set(kept.media) : null;
  const changed = keptKeys !== null && mediaOf(files).some((m) => !keptKeys.has(m.key));

  return (
    <div className={styles.keep}>
      {download ? (
        <div className={styles.progress}>
          <div className={styles.row}>
            <span id={labelId} className={styles.status}>
              Keeping offline…{' '}
              <span className={styles.amount}>
                {formatBytes(download.done)} of {formatBytes(download.total)}
              </span>
            </span>
            <button type="button" className="btn btn-ghost btn-small" onClick={download.cancel}>
              Cancel
            </button>
          </div>
          <div
            className={styles.bar}
            role="progressbar"
            aria-labelledby={labelId}
            aria-valuemin={0}
            aria-valuemax={download.total}
            aria-valuenow={download.done}
            aria-valuetext={`${formatBytes(download.done)} of ${formatBytes(download.total)}`}
          >
            <span style={{ width: `${download.total > 0 ? (download.done / download.total) * 100 : 0}%` }} />
          </div>
        </div>
      ) : kept ? (
        <div className={styles.row}>
          <span className={styles.kept}>
            <CircleCheck size={18} aria-hidden /> Kept offline · {formatBytes(kept.bytes)}
          </span>
          {changed && (
            <button type="button" className="btn btn-ghost btn-small" onClick={measure} disabled={measuring}>
              {measuring ? <Spinner size={14} label="Checking size" /> : <RefreshCw size={14} aria-hidden />}
              Update
            </button>
          )}
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={remove}
            disabled={removing}
            aria-label={`Remove “${target.name}” from this device`}
          >
            Remove
          </button>
        </div>
      ) : (
        <button type="button" className="btn btn-ghost" onClick={measure} disabled={measuring}>
          {measuring ? <Spinner size={16} label="Checking size" /> : <Download size={16} aria-hidden />}
          Keep offline
        </button>
      )}
      {changed && !download && (
        <p className={styles.note}>Changed since it was kept: Update keeps the new files.</p>
      )}

      {error && !download && (
        <div className={styles.error} role="alert">
          <AlertTriangle size={18} aria-hidden />
          <p>{failureText(error, plan)} Nothing was kept.</p>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={() => {
              setMeasureFailed(null);
              dismissFailure(target);
            }}
          >
            Dismiss
          </button>
        </div>
      )}

      <ConfirmPopup
        open={confirming && plan !== null}
        title={`Keep “${target.name}” offline?`}
        confirmLabel="Keep offline"
        onCancel={() => setConfirming(false)}
        onConfirm={confirm}
        message={
          plan && (
            <div className={styles.confirm}>
              <p>
                {plan.files} {plan.files === 1 ? 'file' : 'files'} ·{' '}
                <strong>{formatBytes(plan.totalBytes)}</strong> will be stored in this browser, so you can
                listen without a network.
              </p>
              {plan.downloadBytes < plan.totalBytes && (
                <p>
                  {formatBytes(plan.totalBytes - plan.downloadBytes)} of it is already on this device; the
                  download is {formatBytes(plan.downloadBytes)}.
                </p>
              )}
              {plan.lockedFiles > 0 && (
                <p>
                  {plan.lockedFiles} locked {plan.lockedFiles === 1 ? 'file is' : 'files are'} left out.
                </p>
              )}
              {plan.freeBytes !== null && (
                <p className={plan.downloadBytes > plan.freeBytes ? styles.warning : 'muted'}>
                  {plan.downloadBytes > plan.freeBytes
                    ? `Only ${formatBytes(plan.freeBytes)} of storage is free for this site: the download may not fit.`
                    : `${formatBytes(plan.freeBytes)} of storage is free for this site.`}
                </p>
              )}
            </div>
          )
        }
      />
    </div>
  );
}
