import type { HapticCue } from '@mesmer/shared/domain/haptic-cues';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { options } from 'preact';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { audioFile, json, renderWithProviders, selfUser } from '../../test/testing.tsx';
import { CueEditor } from './CueEditor.tsx';
import { EditorToolbar } from './EditorToolbar.tsx';
import { Inspector } from './Inspector.tsx';
import { IntensityMeter } from './IntensityMeter.tsx';
import { draftKey } from './model/draft.ts';
import { Timeline } from './Timeline.tsx';
import { Transport } from './Transport.tsx';
import { RULER_H, timelineLayout } from './timeline-canvas.ts';

// The timeline is 1,000 px wide in these tests: a 10-second file is 10 ms per pixel, whole.
const WIDTH = 1000;
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => WIDTH });
});
afterEach(() => vi.unstubAllGlobals());

const creator = selfUser({ id: 9, username: 'creator' });
const file = audioFile({ id: 42, name: 'Deep', duration: 10_000, hasHaptics: true });
const lane = timelineLayout(220);
/** A y inside the lane, near its bottom (inside any block). */
const laneY = lane.laneTop + lane.laneHeight - 4;

interface Server {
  cues: HapticCue[];
  revision: number;
  saves: { revision: number; cues: HapticCue[] }[];
  /** Answer the next save with 409. */
  conflict?: boolean;
}

function serve(server: Server): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/files/cues' && (init?.method ?? 'GET') === 'GET') {
      expect(url.searchParams.get('fileId')).toBe('42');
      return json(200, { cues: server.cues, revision: server.revision });
    }
    if (url.pathname === '/api/files/cues' && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body));
      server.saves.push({ revision: body.revision, cues: body.cues });
      if (server.conflict || body.revision !== server.revision) {
        server.conflict = false;
        return json(409, {
          error: 'The cues were changed since you opened them. Nothing was saved.',
          revision: server.revision,
        });
      }
      server.cues = body.cues;
      server.revision += 1;
      return json(200, {
        revision: server.revision,
        file: { ...file, hapticsURL: '/media/haptics/new.json' },
      });
    }
    if (url.pathname === '/api/files/peaks') {
      return json(200, {
        msPerPeak: 20,
        fromMs: 0,
        durationMs: 10_000,
        peaks: Array.from({ length: 500 }, (_, i) => (i % 50 === 0 ? 1 : 0.2)),
        levels: [5, 20, 80],
      });
    }
    return json(404, { error: 'Not found.' });
  };
}

async function open(server: Server) {
  const view = renderWithProviders(<CueEditor file={file} />, { user: creator, fetchImpl: serve(server) });
  const timeline = await screen.findByTestId('cue-timeline');
  // The view fits the measured width once effects have run.
  await waitFor(() => expect(timeline.dataset.msPerPx).toBe('10'));
  return { ...view, timeline };
}

/** Presses and drags on the canvas (its box is at 0,0 in jsdom). */
function drag(target: Element, from: [number, number], to: [number, number], init: PointerEventInit = {}) {
  fireEvent.pointerDown(target, { button: 0, pointerId: 1, clientX: from[0], clientY: from[1], ...init });
  fireEvent.pointerMove(target, {
    pointerId: 1,
    clientX: (from[0] + to[0]) / 2,
    clientY: (from[1] + to[1]) / 2,
  });
  fireEvent.pointerMove(target, { pointerId: 1, clientX: to[0], clientY: to[1] });
  fireEvent.pointerUp(target, { pointerId: 1, clientX: to[0], clientY: to[1] });
}

const field = (name: RegExp) => screen.getByLabelText(name) as HTMLInputElement;
const announced = () => screen.getByTestId('cue-announcer').textContent;
const inspectorTitle = () =>
  screen.getByRole('group', { name: 'Selected cues' }).querySelector('legend')?.textContent;

describe('CueEditor', () => {
  it('draws a cue by dragging on the empty lane (snapped to the grid), undoes and redoes it by keys, and saves it', async () => {
    const server: Server = { cues: [], revision: 0, saves: [] };
    const { timeline } = await open(server);
    expect(screen.getByText('No cues yet: draw one on the lane below, or record.')).toBeInTheDocument();

    drag(timeline, [101, laneY], [198, laneY]);
    expect(announced()).toBe('Cue added at 0:01.000');
    expect(inspectorTitle()).toBe('1 cue selected');
    expect(field(/Start \(ms\)/).value).toBe('1000');
    expect(field(/Stop \(ms\)/).value).toBe('2000');
    expect(field(/Strength/).value).toBe('50');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    fireEvent.keyDown(timeline, { key: 'z', ctrlKey: true });
    expect(announced()).toBe('Undone');
    expect(inspectorTitle()).toBe('No cue selected');
    fireEvent.keyDown(timeline, { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(announced()).toBe('Redone');
    fireEvent.keyDown(timeline, { key: 'ArrowRight' });
    expect(field(/Start \(ms\)/).value).toBe('1000');

    fireEvent.click(screen.getByRole('button', { name: /Save cues/ }));
    expect(await screen.findByText('Cues saved.')).toBeInTheDocument();
    expect(server.saves).toEqual([{ revision: 0, cues: [{ time: 1000, stopTime: 2000, strength: 0.5 }] }]);
    expect(screen.getByText('All changes saved.')).toBeInTheDocument();
  });

  it('moves a block by dragging its body and sets its strength by dragging its top, each one undo step', async () => {
    const server: Server = { cues: [{ time: 2000, stopTime: 3000, strength: 1 }], revision: 3, saves: [] };
    const { timeline } = await open(server);
    // The block spans x 200-300 at 10 ms/px; strength 1 fills the lane.
    drag(timeline, [250, laneY], [352, laneY]);
    expect(announced()).toBe('Moved 1 cue');
    expect(field(/Start \(ms\)/).value).toBe('3000');
    expect(field(/Stop \(ms\)/).value).toBe('4000');

    // Its top edge: drag down to a quarter of the lane's height.
    const top = lane.laneTop;
    drag(timeline, [350, top + 1], [350, lane.laneTop + lane.laneHeight * 0.75]);
    expect(announced()).toBe('Strength changed for 1 cue');
    expect(field(/Strength/).value).toBe('25');

    fireEvent.keyDown(timeline, { key: 'z', ctrlKey: true });
    expect(field(/Strength/).value).toBe('100');
    expect(field(/Start \(ms\)/).value).toBe('3000');
    fireEvent.keyDown(timeline, { key: 'z', ctrlKey: true });
    expect(field(/Start \(ms\)/).value).toBe('2000');
  });

  it('renders nothing while a drag of many cues goes on (the canvas previews it), then applies it once', async () => {
    const cues = Array.from({ length: 12 }, (_, i) => ({
      time: i * 400,
      stopTime: i * 400 + 200,
      strength: 0.5,
    }));
    const server: Server = { cues, revision: 1, saves: [] };
    const { timeline } = await open(server);
    fireEvent.keyDown(timeline, { key: 'a', ctrlKey: true });
    expect(announced()).toBe('12 cues selected');

    const watched = new Map<unknown, string>([
      [EditorToolbar, 'toolbar'],
      [Inspector, 'inspector'],
      [Transport, 'transport'],
      [IntensityMeter, 'meter'],
      [Timeline, 'timeline'],
    ]);
    const renders: string[] = [];
    const before = options.diffed;
    options.diffed = (vnode) => {
      const name = watched.get(vnode.type);
      if (name) renders.push(name);
      before?.(vnode);
    };
    try {
      // The second cue spans x 40-60 at 10 ms/px: grab its body and move the whole selection right.
      fireEvent.pointerDown(timeline, { button: 0, pointerId: 1, clientX: 50, clientY: laneY });
      await act(async () => {});
      renders.length = 0;
      for (let x = 60; x <= 300; x += 10) {
        fireEvent.pointerMove(timeline, { pointerId: 1, clientX: x, clientY: laneY });
        await act(async () => {});
      }
      expect(renders).toEqual([]);
      expect(screen.queryByText('Unsaved changes')).toBeNull();
      expect(inspectorTitle()).toBe('12 cues selected');

      fireEvent.pointerUp(timeline, { pointerId: 1, clientX: 300, clientY: laneY });
      await act(async () => {});
      expect(renders.filter((r) => r === 'toolbar')).toHaveLength(1);
    } finally {
      options.diffed = before;
    }
    expect(announced()).toBe('Moved 12 cues');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    // All moved 2,500 ms as a group (the grabbed cue's start snapped to the grid), as one undo step.
    fireEvent.keyDown(timeline, { key: 'ArrowRight' });
    expect(announced()).toBe('Cue 1 of 12: 0:02.500 to 0:02.700, strength 50%');
    fireEvent.keyDown(timeline, { key: 'z', ctrlKey: true });
    expect(announced()).toBe('Undone');
    fireEvent.keyDown(timeline, { key: 'z', ctrlKey: true });
    expect(announced()).toBe('Nothing to undo');
  });

  it('types start, stop and strength in the inspector, deletes, copies and pastes at the cursor by keys', async () => {
    const server: Server = {
      cues: [
        { time: 1000, stopTime: 1500, strength: 0.4 },
        { time: 5000, stopTime: 6000, strength: 0.8 },
      ],
      revision: 1,
      saves: [],
    };
    const { timeline } = await open(server);
    fireEvent.keyDown(timeline, { key: 'ArrowRight' });
    expect(announced()).toBe('Cue 1 of 2: 0:01.000 to 0:01.500, strength 40%');

    fireEvent.change(field(/Stop \(ms\)/), { target: { value: '2500' } });
    fireEvent.keyDown(field(/Stop \(ms\)/), { key: 'Enter' });
    fireEvent.change(field(/Strength/), { target: { value: '70' } });
    fireEvent.blur(field(/Strength/));
    expect(field(/Stop \(ms\)/).value).toBe('2500');
    expect(field(/Strength/).value).toBe('70');

    fireEvent.keyDown(timeline, { key: 'c', ctrlKey: true });
    expect(announced()).toBe('Copied 1 cue');
    // A click on the waveform puts the cursor there (8 s).
    fireEvent.pointerDown(timeline, { button: 0, pointerId: 1, clientX: 800, clientY: RULER_H + 5 });
    fireEvent.pointerUp(timeline, { pointerId: 1, clientX: 800, clientY: RULER_H + 5 });
    fireEvent.keyDown(timeline, { key: 'v', ctrlKey: true });
    expect(announced()).toBe('Pasted 1 cue at 0:08.000');
    expect(field(/Start \(ms\)/).value).toBe('8000');
    expect(field(/Stop \(ms\)/).value).toBe('9500');

    fireEvent.keyDown(timeline, { key: 'a', ctrlKey: true });
    expect(inspectorTitle()).toBe('3 cues selected');
    fireEvent.keyDown(timeline, { key: '3' });
    expect(field(/Strength/).value).toBe('30');
    fireEvent.keyDown(timeline, { key: 'Delete' });
    expect(announced()).toBe('Deleted 3 cues');
    expect(inspectorTitle()).toBe('No cue selected');
  });

  it('selects the cues in a stretch by dragging over the waveform, and adds one with Shift+click', async () => {
    const server: Server = {
      cues: [
        { time: 1000, stopTime: 1500, strength: 0.5 },
        { time: 3000, stopTime: 3500, strength: 0.5 },
        { time: 7000, stopTime: 7500, strength: 0.5 },
      ],
      revision: 1,
      saves: [],
    };
    const { timeline } = await open(server);
    drag(timeline, [50, RULER_H + 10], [400, RULER_H + 10]);
    expect(inspectorTitle()).toBe('2 cues selected');
    fireEvent.pointerDown(timeline, {
      button: 0,
      pointerId: 1,
      clientX: 720,
      clientY: laneY,
      shiftKey: true,
    });
    fireEvent.pointerUp(timeline, { pointerId: 1, clientX: 720, clientY: laneY });
    expect(inspectorTitle()).toBe('3 cues selected');
    fireEvent.keyDown(timeline, { key: 'Escape' });
    expect(inspectorTitle()).toBe('No cue selected');
  });

  it('keeps a draft in this browser, restores it on reopening with a notice, and discards it on request', async () => {
    const server: Server = { cues: [{ time: 1000, stopTime: 2000, strength: 0.5 }], revision: 2, saves: [] };
    const first = await open(server);
    fireEvent.keyDown(first.timeline, { key: 'ArrowRight' });
    fireEvent.keyDown(first.timeline, { key: 'Delete' });
    await waitFor(() => expect(localStorage.getItem(draftKey(42))).not.toBeNull());
    expect(JSON.parse(localStorage.getItem(draftKey(42)) ?? '{}')).toMatchObject({
      baseVersion: 2,
      cues: [],
    });
    first.unmount();

    await open(server);
    expect(screen.getByText(/A draft from .* was restored from this browser\./)).toBeInTheDocument();
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Discard draft' }));
    await waitFor(() => expect(screen.queryByText(/was restored/)).not.toBeInTheDocument());
    expect(screen.getByText('All changes saved.')).toBeInTheDocument();
    await waitFor(() => expect(localStorage.getItem(draftKey(42))).toBeNull());
  });

  it('on a conflict never overwrites: asks, then keeps mine against their revision, or loads theirs', async () => {
    const server: Server = { cues: [{ time: 1000, stopTime: 2000, strength: 0.5 }], revision: 4, saves: [] };
    const { timeline } = await open(server);
    fireEvent.keyDown(timeline, { key: 'ArrowRight' });
    fireEvent.keyDown(timeline, { key: '9' });
    // Another editor saved meanwhile.
    server.cues = [{ time: 4000, stopTime: 4200, strength: 1 }];
    server.revision = 5;
    fireEvent.keyDown(timeline, { key: 's', ctrlKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'The cues changed meanwhile' });
    expect(within(dialog).getByText(/Nothing was saved\./)).toBeInTheDocument();
    expect(server.cues).toEqual([{ time: 4000, stopTime: 4200, strength: 1 }]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep mine as a new draft' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /Save cues/ }));
    expect(await screen.findByText('Cues saved.')).toBeInTheDocument();
    expect(server.saves.map((s) => s.revision)).toEqual([4, 5]);
    expect(server.cues).toEqual([{ time: 1000, stopTime: 2000, strength: 0.9 }]);

    // Now theirs: another save meanwhile, and this time their version is loaded.
    fireEvent.keyDown(timeline, { key: '1' });
    server.cues = [{ time: 500, stopTime: 700, strength: 0.3 }];
    server.revision = 9;
    fireEvent.keyDown(timeline, { key: 's', ctrlKey: true });
    const again = await screen.findByRole('dialog', { name: 'The cues changed meanwhile' });
    fireEvent.click(within(again).getByRole('button', { name: 'Load theirs' }));
    await waitFor(() => expect(announced()).toBe('Loaded the saved cues: 1 cue'));
    fireEvent.keyDown(timeline, { key: 'ArrowRight' });
    expect(field(/Start \(ms\)/).value).toBe('500');
    expect(screen.getByText('All changes saved.')).toBeInTheDocument();
  });

  it('imports a Funscript (undoably) and refuses a broken file with the upload message', async () => {
    const server: Server = { cues: [], revision: 0, saves: [] };
    const { timeline } = await open(server);
    const input = screen.getByLabelText('Import a cue file or Funscript') as HTMLInputElement;
    const script = {
      actions: [
        { at: 1000, pos: 100 },
        { at: 2000, pos: 0 },
      ],
    };
    const funscript = new File([JSON.stringify(script)], 'deep.funscript');
    await act(async () => {
      fireEvent.change(input, { target: { files: [funscript] } });
    });
    await waitFor(() => expect(announced()).toMatch(/^Imported \d+ cues?$/));
    fireEvent.keyDown(timeline, { key: 'ArrowRight' });
    expect(Number(field(/Start \(ms\)/).value)).toBeGreaterThanOrEqual(1000);

    const broken = new File(['{not json'], 'broken.json');
    await act(async () => {
      fireEvent.change(input, { target: { files: [broken] } });
    });
    expect(await screen.findByText(/^broken\.json: /)).toBeInTheDocument();
  });

  it('lists the shortcuts in a dialog on ?, and the editor keys do not reach the player', async () => {
    const server: Server = { cues: [], revision: 0, saves: [] };
    const { timeline } = await open(server);
    const pressed = new KeyboardEvent('keydown', { key: '?', bubbles: true, cancelable: true });
    act(() => {
      timeline.dispatchEvent(pressed);
    });
    expect(pressed.defaultPrevented).toBe(true);
    const dialog = await screen.findByRole('dialog', { name: 'Cue editor shortcuts' });
    expect(within(dialog).getByText('R (hold)')).toBeInTheDocument();
    expect(within(dialog).getByText('Record a cue while playing')).toBeInTheDocument();
  });
});
