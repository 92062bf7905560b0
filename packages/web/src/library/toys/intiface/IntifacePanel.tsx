import { type FormEvent, useEffect, useId, useState } from 'react';
import { FormError, SubmitButton } from '../../../ui/index.ts';
import { intiface } from './instance.ts';
import styles from './intiface.module.css';
import { type IntifaceConnection, useIntiface } from './intiface-connection.ts';

/**
 * Intiface Central (Buttplug): the listener runs it on their own computer, and this page connects
 * to its server from the browser, scans for toys and tests one. While connected, files with
 * haptics drive every vibrating toy found.
 */
export function IntifacePanel({ connection = intiface }: { connection?: IntifaceConnection }) {
  const state = useIntiface(connection);
  const [address, setAddress] = useState(state.address);
  const id = useId();
  const connected = state.status === 'connected';
  const connecting = state.status === 'connecting';
  // The address as last tried (e.g. trimmed) once an attempt ends.
  useEffect(() => setAddress(state.address), [state.address]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void connection.connect(address);
  };

  return (
    <div className={styles.panel}>
      <p className={`muted ${styles.status}`}>
        Install Intiface Central on this computer, pair your toy in it and press Start Server; then connect
        here.
      </p>
      <form className={styles.connect} onSubmit={submit}>
        <div className="field">
          <label htmlFor={id}>Intiface Central address</label>
          <input
            id={id}
            className="input"
            type="text"
            inputMode="url"
            spellCheck={false}
            autoComplete="off"
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            disabled={connected || connecting}
          />
        </div>
        {connected ? (
          <button type="button" className="btn btn-ghost" onClick={() => void connection.disconnect()}>
            Disconnect
          </button>
        ) : (
          <SubmitButton pending={connecting} pendingLabel="Connecting">
            Connect
          </SubmitButton>
        )}
      </form>
      <FormError message={state.error} />
      {connected && (
        <>
          <div className={styles.actions}>
            <p className={styles.status} role="status">
              Connected to Intiface Central.
            </p>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => void connection.scan()}>
              {state.scanning ? 'Stop scanning' : 'Scan for toys'}
            </button>
          </div>
          {state.toys.length === 0 ? (
            <p className="muted">
              {state.scanning ? 'Scanning… Switch your toy on.' : 'No toys yet. Switch your toy on and scan.'}
            </p>
          ) : (
            <ul className={styles.toys} aria-label="Toys">
              {state.toys.map((toy) => (
                <li key={toy.index}>
                  <span>
                    <span className={styles.toyName}>{toy.name}</span>
                    {!toy.canVibrate && <span className="muted"> (cannot vibrate)</span>}
                  </span>
                  {toy.canVibrate && (
                    <button
                      type="button"
                      className="btn btn-ghost btn-small"
                      aria-label={`Test ${toy.name}`}
                      disabled={state.testing !== null}
                      onClick={() => void connection.test(toy.index)}
                    >
                      {state.testing === toy.index ? 'Testing…' : 'Test'}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
