/**
 * The level the listener hears: the volume setting, times the loudness normalisation gain,
 * times a fade (sleep timer, wake-up). Gains above 1 need Web Audio (a GainNode after the
 * element); without it the element's volume carries everything, capped at 1.
 */
import type { MediaElement } from './audio-element.ts';

/** A gain after the element, e.g. a Web Audio GainNode. */
export interface GainStage {
  setGain(gain: number): void;
  /** Called when playback starts: a suspended audio context must run again. */
  resume(): void;
}

/**
 * Routes the page's audio element through a Web Audio GainNode; null when the browser has no
 * Web Audio or the audio is from another origin (it would come out silent without CORS), and
 * undefined while the page has had no user gesture (the context would stay suspended, and the
 * audio silent: e.g. a lock-screen Play after a reload).
 */
export function createWebAudioGainStage(element: MediaElement): GainStage | null | undefined {
  if (typeof window === 'undefined' || !(element instanceof HTMLMediaElement)) return null;
  const Context = window.AudioContext;
  if (typeof Context !== 'function') return null;
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return undefined;
  try {
    if (element.src && new URL(element.src, location.href).origin !== location.origin) return null;
    const context = new Context();
    const source = context.createMediaElementSource(element);
    const gain = context.createGain();
    source.connect(gain).connect(context.destination);
    return {
      setGain(value: number) {
        gain.gain.value = value;
        // What the end-to-end journeys read to check the graph.
        element.dataset.gain = String(value);
      },
      resume() {
        if (context.state === 'suspended') void context.resume().catch(() => {});
      },
    };
  } catch {
    return null;
  }
}

export function createOutputLevel(opts: {
  element: () => MediaElement;
  /**
   * The gain stage, made the first time playback starts (an audio context wants a gesture);
   * undefined to try again at the next start.
   */
  createStage?: (element: MediaElement) => GainStage | null | undefined;
  /** 0-100. */
  volume: () => number;
}) {
  let stage: GainStage | null | undefined;
  let gain = 1;
  let fade = 1;

  function apply() {
    const element = opts.element();
    const volume = (opts.volume() / 100) * fade;
    if (stage) stage.setGain(gain);
    // Until playback first starts the stage is not made yet (undefined), and the gain waits for it.
    element.volume = stage === null ? Math.min(1, volume * gain) : volume;
  }

  return {
    apply,
    /** Playback is starting: set the gain stage up (once) and make sure it runs. */
    starting() {
      if (stage === undefined) {
        stage = opts.createStage ? opts.createStage(opts.element()) : null;
        apply();
      }
      stage?.resume();
    },
    /** The normalisation gain (1 when off). */
    setGain(next: number) {
      gain = next;
      apply();
    },
    setFade(next: number) {
      fade = next;
      apply();
    },
    fade: () => fade,
  };
}
