/** The 18+ gate's words, in the gate's markup below. */
const AGE_GATE_TEXT = {
  title: 'Adults only',
  body: 'Mesmer is a place for hypnosis-style audio made for adults. Some sessions contain mature themes and suggestions meant for a relaxed, willing listener.',
  ask: 'Please confirm that you are at least 18 years old to continue.',
  enter: 'I am 18 or older — Enter',
  leave: 'Leave',
} as const;

/** The id of the element holding the gate, beside the app's root: in a first visit's page, or put there by the app. */
export const SERVED_AGE_GATE_ID = 'served-age-gate';

/**
 * The gate as plain HTML, which the server puts in a first visit's page so it paints with the page
 * instead of after the scripts; its buttons stay disabled until the app takes it over (app/AgeGate.tsx,
 * which puts this same markup in a page that came without it).
 */
export function ageGateMarkup(): string {
  const t = AGE_GATE_TEXT;
  return (
    '<div class="age-gate"><div class="age-gate-card" role="alertdialog" aria-modal="true" aria-labelledby="age-gate-title" aria-describedby="age-gate-text">' +
    `<img alt="" width="56" height="56" src="/favicon.svg"><h1 id="age-gate-title">${t.title}</h1>` +
    `<div id="age-gate-text"><p>${t.body}</p><p class="muted">${t.ask}</p></div>` +
    `<div class="age-gate-actions"><button type="button" class="btn btn-primary" disabled="">${t.enter}</button>` +
    `<button type="button" class="btn btn-ghost" disabled="">${t.leave}</button></div></div></div>`
  );
}
