/** A media element for the player's tests: it plays, pauses, ends and fails when told to. */
import type { MediaElement, MediaEventName } from './audio-element.ts';

export class FakeMediaElement implements MediaElement {
  /** Every URL set, in order. */
  readonly sources: string[] = [];
  id = '';
  private current = '';
  currentTime = 0;
  duration = Number.NaN;
  paused = true;
  ended = false;
  volume = 1;
  playbackRate = 1;
  defaultPlaybackRate = 1;
  private readonly listeners = new Map<MediaEventName, Set<() => void>>();

  get src() {
    return this.current;
  }
  set src(url: string) {
    this.current = url;
    this.sources.push(url);
    this.currentTime = 0;
    this.ended = false;
  }

  play() {
    if (this.paused) {
      // Play after the end starts over, as in browsers.
      if (this.ended) this.currentTime = 0;
      this.paused = false;
      this.ended = false;
      this.emit('playing');
    }
    return Promise.resolve();
  }
  pause() {
    if (this.paused) return;
    this.paused = true;
    this.emit('pause');
  }
  load() {}
  removeAttribute() {
    this.current = '';
  }
  addEventListener(type: MediaEventName, listener: () => void) {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }
  removeEventListener(type: MediaEventName, listener: () => void) {
    this.listeners.get(type)?.delete(listener);
  }
  emit(type: MediaEventName) {
    for (const listener of this.listeners.get(type) ?? []) listener();
  }

  /** The audio's metadata came in: `seconds` long. */
  metadata(seconds: number) {
    this.duration = seconds;
    this.emit('loadedmetadata');
    this.emit('durationchange');
  }
  /** Plays on to `seconds`. */
  playTo(seconds: number) {
    this.currentTime = seconds;
    this.emit('timeupdate');
  }
  /** Plays to the end, as a browser reports it: paused, then ended. */
  finish() {
    this.currentTime = this.duration;
    this.paused = true;
    this.ended = true;
    this.emit('pause');
    this.emit('ended');
  }
  /** The audio could not be loaded (e.g. its signed URL expired). */
  fail() {
    this.paused = true;
    this.emit('error');
  }
}
