import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent } from '@testing-library/react';
import { options } from 'preact';
import { afterEach } from 'vitest';
import { dismissAllToasts } from '../ui/toast-store.ts';

// An edit fires `input`, then `change`, as in a browser: preact/compat, which the app ships on (decision 031),
// hears a text field's onChange as `input`, and fireEvent.change alone fires only `change`.
const change = fireEvent.change;
fireEvent.change = (element, init) => {
  fireEvent.input(element, init);
  return change(element);
};

// Effects run after a timeout, not jsdom's animation frame: preact's frame wait ends in a timer that
// calls cancelAnimationFrame, which is gone once a test file's environment is torn down (an uncaught
// ReferenceError that fails the run when such a timer outlives its file).
options.requestAnimationFrame = (flush) => setTimeout(flush);

// Test files share a module graph (the root vitest.config.ts): no toast outlives its test.
afterEach(() => {
  cleanup();
  localStorage.clear();
  dismissAllToasts();
});
