import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { lovenseToysQuery } from '../../../api/lovense.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { ErrorState, FormError, LoadingState, Modal, toast } from '../../../ui/index.ts';
import { useLovenseDisconnect, useLovenseQr, useLovenseTest } from './api.ts';
import styles from './lovense.module.css';

/** While the QR code is shown: how often we ask whether Lovense Remote reported in. */
export const PAIRING_POLL_MS = 2000;
/** While connected: how often the toy list is read again (Lovense Remote reports changes). */
const CONNECTED_POLL_MS = 15_000;

const notConfigured = (err: unknown) => err instanceof ApiError && err.status === 503;

/**
 * Lovense (Standard API): Connect Lovense shows a QR code to scan with the Lovense Remote app; once
 * the app reports in, its toys are listed here, with Test (level 10 for 2 s) and Disconnect.
 */
export function LovensePanel() {
  const [pairing, setPairing] = useState(false);
  const qr = useLovenseQr();
  const test = useLovenseTest();
  const disconnect = useLovenseDisconnect();
  const toys = useQuery({
    ...lovenseToysQuery,
    retry: (count, err) => !notConfigured(err) && count < 2,
    refetchInterval: (query) =>
      query.state.data?.connected ? CONNECTED_POLL_MS : pairing ? PAIRING_POLL_MS : false,
  });
  const connected = toys.data?.connected ?? false;

  // The scan arrived: the popup has done its work.
  useEffect(() => {
    if (pairing && connected) {
      setPairing(false);
      toast('success', 'Lovense connected!');
    }
  }, [pairing, connected]);

  const startPairing = () => {
    setPairing(true);
    qr.mutate();
  };

  if (toys.isPending) return <LoadingState label="Loading your Lovense connection" />;
  if (toys.isError) {
    return notConfigured(toys.error) ? (
      <p className={`muted ${styles.status}`}>{toys.error.message} Use Intiface Central to connect a toy.</p>
    ) : (
      <ErrorState
        message="Your Lovense connection could not be loaded."
        onRetry={() => void toys.refetch()}
      />
    );
  }

  return (
    <div className={styles.panel}>
      {connected ? (
        <>
          <p className={styles.status} role="status">
            Connected to Lovense Remote.
          </p>
          {toys.data.toys.length === 0 ? (
            <p className="muted">
              No toys reported yet. Switch your toy on and connect it in Lovense Remote.
            </p>
          ) : (
            <ul className={styles.toys} aria-label="Lovense toys">
              {toys.data.toys.map((toy) => (
                <li key={toy.id}>
                  <span className={styles.toyName}>{toy.name}</span>
                  <span className="muted">{toy.connected ? 'Connected' : 'Disconnected'}</span>
                </li>
              ))}
            </ul>
          )}
          <div className={styles.actions}>
            <button
              type="button"
              className="btn btn-ghost btn-small"
              disabled={test.isPending}
              onClick={() =>
                test.mutate(undefined, {
                  onError: (err) => toast('error', 'The test did not reach your toy.', err.message),
                })
              }
            >
              {test.isPending ? 'Testing…' : 'Test'}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-small"
              disabled={disconnect.isPending}
              onClick={() =>
                disconnect.mutate(undefined, {
                  onError: (err) => toast('error', 'Failed to disconnect Lovense.', err.message),
                })
              }
            >
              Disconnect
            </button>
          </div>
        </>
      ) : (
        <>
          <p className={`muted ${styles.status}`}>
            Pair the Lovense Remote app on your phone with your account; files with haptics then drive the
            toys connected to it.
          </p>
          <div className={styles.actions}>
            <button type="button" className="btn btn-primary btn-small" onClick={startPairing}>
              Connect Lovense
            </button>
          </div>
        </>
      )}
      <Modal open={pairing} title="Connect Lovense" onClose={() => setPairing(false)}>
        {qr.isPending ? (
          <LoadingState label="Asking Lovense for a QR code" />
        ) : qr.isError ? (
          <FormError message={qr.error.message} />
        ) : qr.data ? (
          <div className={styles.qr}>
            <img src={qr.data.qrcodeUrl} alt="Lovense pairing QR code" />
            <p>
              Code: <span className={styles.code}>{qr.data.code}</span>
            </p>
            <ol className={styles.steps}>
              <li>Open the Lovense Remote app on your phone, with your toy connected to it.</li>
              <li>Scan with the Lovense Remote app: tap the scan button and point it at this code.</li>
              <li>This window closes by itself once your toys show up.</li>
            </ol>
            <p className="muted" role="status">
              Waiting for Lovense Remote…
            </p>
          </div>
        ) : null}
      </Modal>
    </div>
  );
}
