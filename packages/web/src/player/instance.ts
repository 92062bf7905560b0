/** The app's one player engine, over the page's audio elements and the real server calls. */
import { toast } from '../ui/index.ts';
import { createAudioElement } from './audio-element.ts';
import { createPlayerEngine } from './engine.ts';
import { sessionCalls } from './listening-session.ts';
import { webAudioGainStages } from './output-level.ts';
import { playerStore } from './store.ts';

const engine = createPlayerEngine({
  store: playerStore,
  createElement: createAudioElement,
  createGainStage: webAudioGainStages(),
  sessions: sessionCalls,
  now: Date.now,
  random: Math.random,
  notify: toast,
});

export const playerControls = engine.controls;
export const attachPlayer = engine.attach;
