import { describe, expect, it } from 'vitest';
import {
  clampView,
  fitMsPerPx,
  fitView,
  hitTest,
  MIN_MS_PER_PX,
  msToPx,
  pxToMs,
  scrollBy,
  scrollToShow,
  type TimelineView,
  visibleCueRange,
  visibleRange,
  zoomAt,
} from './timeline';

const MINUTE = 60_000;
const view = (msPerPx: number, scrollMs: number, widthPx = 1000): TimelineView => ({
  msPerPx,
  scrollMs,
  widthPx,
});

describe('zoom limits', () => {
  it('fits the whole file, never finer than 10 ms per pixel', () => {
    expect(fitMsPerPx(MINUTE, 1000)).toBe(60);
    expect(fitMsPerPx(2000, 1000)).toBe(MIN_MS_PER_PX);
    expect(fitMsPerPx(MINUTE, 0)).toBe(MIN_MS_PER_PX);
    expect(fitView(MINUTE, 1200)).toEqual({ msPerPx: 50, scrollMs: 0, widthPx: 1200 });
  });

  it('clamps the zoom and the scroll to the file', () => {
    expect(clampView(view(1, 0), MINUTE)).toEqual(view(10, 0));
    expect(clampView(view(500, 100), MINUTE)).toEqual(view(60, 0));
    expect(clampView(view(20, 55_000), MINUTE)).toEqual(view(20, 40_000));
    expect(clampView(view(20, -5), MINUTE)).toEqual(view(20, 0));
    expect(clampView(view(Number.NaN, Number.NaN), MINUTE)).toEqual(view(10, 0));
  });
});

describe('conversions', () => {
  it('maps times to pixels and back', () => {
    const v = view(20, 10_000);
    expect(msToPx(v, 12_000)).toBe(100);
    expect(pxToMs(v, 100)).toBe(12_000);
    expect(msToPx(v, 9000)).toBe(-50);
    expect(visibleRange(v)).toEqual({ fromMs: 10_000, toMs: 30_000 });
  });
});

describe('zoomAt', () => {
  it('keeps the time under the pointer in place', () => {
    const v = zoomAt(view(40, 10_000), 0.5, 250, MINUTE);
    expect(v).toEqual(view(20, 15_000));
    expect(pxToMs(v, 250)).toBe(pxToMs(view(40, 10_000), 250));
  });

  it('stops at the limits', () => {
    expect(zoomAt(view(10, 0), 0.5, 0, MINUTE).msPerPx).toBe(10);
    expect(zoomAt(view(40, 10_000), 8, 500, MINUTE)).toEqual(view(60, 0));
    expect(zoomAt(view(40, 10_000), 0, 500, MINUTE)).toEqual(view(40, 10_000));
  });
});

describe('scrolling', () => {
  it('scrolls by pixels within the file', () => {
    expect(scrollBy(view(20, 0), 100, MINUTE)).toEqual(view(20, 2000));
    expect(scrollBy(view(20, 0), -100, MINUTE)).toEqual(view(20, 0));
    expect(scrollBy(view(20, 0), 99_999, MINUTE)).toEqual(view(20, 40_000));
  });

  it('brings a time into view only when it is out of view', () => {
    const v = view(20, 10_000);
    expect(scrollToShow(v, 20_000, MINUTE)).toBe(v);
    expect(scrollToShow(v, 31_000, MINUTE, 50)).toEqual(view(20, 30_000));
    expect(scrollToShow(v, 2000, MINUTE)).toEqual(view(20, 2000));
  });
});

describe('visibleCueRange', () => {
  const cues = Array.from({ length: 10_000 }, (_, i) => ({
    time: i * 100,
    stopTime: i * 100 + 50,
    strength: 1,
  }));

  it('finds the cues overlapping the range by binary search', () => {
    expect(visibleCueRange(cues, 1000, 1300)).toEqual({ start: 10, end: 13 });
    // A cue ending inside the range's start counts; one ending exactly at it does not.
    expect(visibleCueRange(cues, 1040, 1300)).toEqual({ start: 10, end: 13 });
    expect(visibleCueRange(cues, 1050, 1300)).toEqual({ start: 11, end: 13 });
    expect(visibleCueRange(cues, 0, 10_000_000)).toEqual({ start: 0, end: 10_000 });
    expect(visibleCueRange(cues, 2_000_000, 3_000_000)).toEqual({ start: 10_000, end: 10_000 });
    expect(visibleCueRange([], 0, 100)).toEqual({ start: 0, end: 0 });
    expect(visibleCueRange(cues, 1060, 1070)).toEqual({ start: 11, end: 11 });
  });
});

describe('hitTest', () => {
  const cues = [
    { time: 1000, stopTime: 2000, strength: 1 },
    { time: 2000, stopTime: 2100, strength: 0.5 },
  ];
  const v = view(10, 0);

  it('finds an edge within a few pixels, else the body, else nothing', () => {
    expect(hitTest(cues, v, 102)).toEqual({ index: 0, part: 'start' });
    expect(hitTest(cues, v, 150)).toEqual({ index: 0, part: 'body' });
    expect(hitTest(cues, v, 208)).toEqual({ index: 1, part: 'stop' });
    expect(hitTest(cues, v, 50)).toBeNull();
    expect(hitTest(cues, v, 300)).toBeNull();
  });

  it('prefers the nearer edge where cues touch', () => {
    expect(hitTest(cues, v, 199)).toEqual({ index: 0, part: 'stop' });
    expect(hitTest(cues, v, 201)).toEqual({ index: 1, part: 'start' });
  });
});
