import { AGE_GATE_TEXT, SERVED_AGE_GATE_ID } from '@mesmer/shared/domain/age-gate';
import { useEffect, useRef, useState } from 'react';
import { popupStack } from '../ui/index.ts';
import { confirmAge } from './age-gate.ts';

/** Where 'Leave' sends a visitor who is not an adult. */
const LEAVE_URL = 'https://www.google.com/';

function leave() {
  window.location.assign(LEAVE_URL);
}

/**
 * Full-screen 18+ confirmation shown on the first visit (global.css styles it). A first visit's page
 * already shows it, painted before the scripts ran: the app takes that one over rather than drawing it
 * again, so the visitor sees no flash and the first paint stays the page's largest.
 */
export function AgeGate() {
  const [served] = useState(() => document.getElementById(SERVED_AGE_GATE_ID));
  return served ? <ServedAgeGate element={served} /> : <DrawnAgeGate />;
}

/** Wakes the gate the server's page carried: buttons enabled and wired, focus on Enter; hidden once gone. */
function ServedAgeGate({ element }: { element: HTMLElement }) {
  useEffect(() => {
    const [enter, leaveButton] = element.querySelectorAll('button');
    element.hidden = false;
    for (const button of [enter, leaveButton]) button.disabled = false;
    enter.addEventListener('click', confirmAge);
    leaveButton.addEventListener('click', leave);
    popupStack.push();
    enter.focus();
    return () => {
      popupStack.pop();
      enter.removeEventListener('click', confirmAge);
      leaveButton.removeEventListener('click', leave);
      element.hidden = true;
    };
  }, [element]);
  return null;
}

function DrawnAgeGate() {
  const enterRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    popupStack.push();
    enterRef.current?.focus();
    return () => {
      popupStack.pop();
    };
  }, []);

  return (
    <div className="age-gate">
      <div
        className="age-gate-card"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="age-gate-title"
        aria-describedby="age-gate-text"
      >
        <img src="/favicon.svg" alt="" width={56} height={56} />
        <h1 id="age-gate-title">{AGE_GATE_TEXT.title}</h1>
        <div id="age-gate-text">
          <p>{AGE_GATE_TEXT.body}</p>
          <p className="muted">{AGE_GATE_TEXT.ask}</p>
        </div>
        <div className="age-gate-actions">
          <button ref={enterRef} type="button" className="btn btn-primary" onClick={confirmAge}>
            {AGE_GATE_TEXT.enter}
          </button>
          <button type="button" className="btn btn-ghost" onClick={leave}>
            {AGE_GATE_TEXT.leave}
          </button>
        </div>
      </div>
    </div>
  );
}
