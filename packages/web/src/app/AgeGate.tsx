import { ageGateMarkup, SERVED_AGE_GATE_ID } from '@mesmer/shared/domain/age-gate';
import { useEffect, useState } from 'react';
import { popupStack } from '../ui/index.ts';
import { confirmAge } from './age-gate.ts';

/** Where 'Leave' sends a visitor who is not an adult. */
const LEAVE_URL = 'https://www.google.com/';

function leave() {
  window.location.assign(LEAVE_URL);
}

/**
 * The gate's element: the one a first visit's page carried, painted before the scripts ran, or the same
 * markup put in the page now (a page sent without it: the cookie said confirmed, this browser's storage
 * does not). One template for both, `ageGateMarkup`: fixed text of our own, no user input.
 */
function gateElement(): HTMLElement {
  const served = document.getElementById(SERVED_AGE_GATE_ID);
  if (served) return served;
  const element = document.createElement('div');
  element.id = SERVED_AGE_GATE_ID;
  element.innerHTML = ageGateMarkup();
  document.body.append(element);
  return element;
}

/**
 * Full-screen 18+ confirmation shown on the first visit (global.css styles it). The app takes over the
 * gate's markup rather than drawing its own, so the visitor sees no flash and the first paint stays the
 * page's largest: buttons enabled and wired, focus on Enter; hidden once confirmed.
 */
export function AgeGate() {
  const [element] = useState(gateElement);
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
