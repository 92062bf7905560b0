import { useEffect, useRef } from 'react';
import { popupStack } from '../ui/index.ts';
import { confirmAge } from './age-gate.ts';
import styles from './layout.module.css';

/** Where 'Leave' sends a visitor who is not an adult. */
const LEAVE_URL = 'https://www.google.com/';

/** Full-screen 18+ confirmation shown on the first visit. */
export function AgeGate() {
  const enterRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    popupStack.push();
    enterRef.current?.focus();
    return () => {
      popupStack.pop();
    };
  }, []);

  return (
    <div className={styles.ageGate}>
      <div
        className={styles.ageGateCard}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="age-gate-title"
        aria-describedby="age-gate-text"
      >
        <img src="/favicon.svg" alt="" width={56} height={56} />
        <h1 id="age-gate-title">Adults only</h1>
        <div id="age-gate-text">
          <p>
            Mesmer is a place for hypnosis-style audio made for adults. Some sessions contain mature themes
            and suggestions meant for a relaxed, willing listener.
          </p>
          <p className="muted">Please confirm that you are at least 18 years old to continue.</p>
        </div>
        <div className={styles.ageGateActions}>
          <button ref={enterRef} type="button" className="btn btn-primary" onClick={confirmAge}>
            I am 18 or older — Enter
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => window.location.assign(LEAVE_URL)}>
            Leave
          </button>
        </div>
      </div>
    </div>
  );
}
