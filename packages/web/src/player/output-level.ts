/**
 * The level the listener hears: the volume setting, times the loudness normalisation gain of the
 * track in each element, times a fade (sleep timer, wake-up). Gains above 1 need Web Audio (a
 * GainNode after each element, all in one audio context); without it the element's volume
 * carries everything, capped at 1.
 */
import type { MediaElement } from './audio-element.ts';

/** A gain after an element, e.g. a Web Audio GainNode. */
export interface GainStage {
  setGain(gain: number): void;
  /** Called when playback starts: a suspended audio context must run again. */
  resume(): void;
}

export type CreateGainStage = (element: MediaElement) => GainStage | null | undefined;

/**
 * Routes the page's audio elements through one Web Audio context, each through its own GainNode
 * (each track keeps its own normalisation gain, also while the next one preloads). A stage is
 * null when the browser has no Web Audio or the audio is from another origin (it would come out
 * silent without CORS), and undefined while the page has had no user gesture (the context would
 * stay suspended, and the audio silent: e.g. a lock-screen Play after a reload).
 */
export function webAudioGainStages(): CreateGainStage {
  let context: AudioContext | null = null;
  return (element) => {
    if (typeof window === 'undefined' || !(element instanceof HTMLMediaElement)) return null;
    const Context = window.AudioContext;
    if (typeof Context !== 'function') return null;
    if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return undefined;
    try {
      if (element.src && new URL(element.src, location.href).origin !== location.origin) return null;
      context ??= new Context();
      const graph = context;
      const source = graph.createMediaElementSource(element);
      const gain = graph.createGain();
      source.connect(gain).connect(graph.destination);
      return {
        setGain(value: number) {
          gain.gain.value = value;
          // What the end-to-end journeys read to check the graph.
          element.dataset.gain = String(value);
        },
        resume() {
          if (graph.state === 'suspended') void graph.resume().catch(() => {});
        },
      };
    } catch {
      return null;
    }
  };
}

interface ElementOutput {
  /** Made the first time the element plays; undefined until then (or to try again). */
  stage: GainStage | null | undefined;
  /** The normalisation gain of the element's track (1 when off). */
  gain: number;
}

export function createOutputLevel(opts: {
  /** The gain stage of an element (an audio context wants a gesture); undefined to try again later. */
  createStage?: CreateGainStage;
  /** 0-100. */
  volume: () => number;
}) {
  const outputs = new Map<MediaElement, ElementOutput>();
  let fade = 1;

  function output(element: MediaElement): ElementOutput {
    let out = outputs.get(element);
    if (!out) {
      out = { stage: undefined, gain: 1 };
      outputs.set(element, out);
    }
    return out;
  }

  function applyTo(element: MediaElement, out: ElementOutput) {
    const volume = (opts.volume() / 100) * fade;
    if (out.stage) out.stage.setGain(out.gain);
    // Until the element first plays its stage is not made yet (undefined), and the gain waits for it.
    element.volume = out.stage === null ? Math.min(1, volume * out.gain) : volume;
  }

  function makeStage(element: MediaElement, out: ElementOutput) {
    out.stage = opts.createStage ? opts.createStage(element) : null;
    applyTo(element, out);
  }

  return {
    /** An element the player plays through. */
    add(element: MediaElement) {
      applyTo(element, output(element));
    },
    apply() {
      for (const [element, out] of outputs) applyTo(element, out);
    },
    /** `element` starts playing: set its gain stage up (once) and make sure it runs. */
    starting(element: MediaElement) {
      const out = output(element);
      if (out.stage === undefined) makeStage(element, out);
      out.stage?.resume();
    },
    /**
     * The next track went into `element` while `playing` plays: it is routed the same way now,
     * so its own gain is in place before it starts (the audio context already runs).
     */
    prepare(element: MediaElement, playing: MediaElement) {
      const out = output(element);
      if (out.stage === undefined && output(playing).stage !== undefined) makeStage(element, out);
    },
    /** The normalisation gain of the track in `element` (1 when off). */
    setGain(element: MediaElement, gain: number) {
      const out = output(element);
      out.gain = gain;
      applyTo(element, out);
    },
    setFade(next: number) {
      fade = next;
      for (const [element, out] of outputs) applyTo(element, out);
    },
  };
}
