import type { FileWaveform } from '@mesmer/shared/api/files';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hapticCuesQuery, waveformQuery } from '../api/files.ts';
import { audioFile } from '../test/testing.tsx';
import { playerControls } from './instance.ts';
import { SeekBar } from './SeekBar.tsx';

afterEach(() => {
  vi.restoreAllMocks();
});

const cues = [
  { time: 2000, stopTime: 5000, strength: 0.4 },
  { time: 20_000, stopTime: 24_000, strength: 1 },
];

/** The seek bar of a 40 s track at 10 s, its waveform and cue file already fetched. */
function renderSeekBar(peaks: number[]) {
  const track = audioFile({ hapticsURL: '/media/haptics/cues.json', hasHaptics: true, duration: 40_000 });
  const client = new QueryClient();
  const waveform: FileWaveform = { peaks, loudness: -18 };
  client.setQueryData(waveformQuery(track.id).queryKey, waveform);
  client.setQueryData(hapticCuesQuery(track).queryKey, cues);
  const seek = vi.spyOn(playerControls, 'seek').mockImplementation(() => undefined);
  render(
    <QueryClientProvider client={client}>
      <SeekBar track={track} position={10} duration={40} />
    </QueryClientProvider>,
  );
  return { seek, slider: screen.getByRole('slider', { name: 'Seek' }) };
}

describe('SeekBar', () => {
  it("draws the track's peaks and haptic cues behind a slider", () => {
    const { slider } = renderSeekBar(Array.from({ length: 1000 }, (_, i) => (i % 10) / 10));
    const waveform = screen.getByTestId('seek-waveform');
    expect(waveform).toHaveAttribute('data-bars', '120');
    expect(waveform).toHaveAttribute('aria-hidden', 'true');
    // The played quarter is clipped out of the bars in the accent colour.
    const clip = waveform.querySelector('clipPath rect');
    expect(Number(clip?.getAttribute('width'))).toBeCloseTo(359 / 4, 5);
    const marks = screen.getAllByTestId('haptic-cue');
    expect(marks.map((m) => [m.getAttribute('x'), m.getAttribute('fill-opacity')])).toEqual([
      [String((2 / 40) * 359), String(0.35 + 0.65 * 0.4)],
      [String((20 / 40) * 359), '1'],
    ]);
    expect(slider).toHaveAttribute('aria-valuetext', '00:10 of 00:40');
    expect(slider).toHaveValue('10');
  });

  it('moves 5 s with the arrow keys and to either end with Home and End', () => {
    const { seek, slider } = renderSeekBar([0.5, 1]);
    for (const key of ['ArrowRight', 'ArrowUp', 'ArrowLeft', 'ArrowDown', 'Home', 'End']) {
      fireEvent.keyDown(slider, { key });
    }
    expect(seek.mock.calls).toEqual([[15], [15], [5], [5], [0], [40]]);
  });

  it('is the plain bar while the track is not analysed', () => {
    const { slider } = renderSeekBar([]);
    expect(screen.queryByTestId('seek-waveform')).toBeNull();
    expect(screen.queryAllByTestId('haptic-cue')).toEqual([]);
    expect(slider).toHaveAttribute('aria-valuetext', '00:10 of 00:40');
  });
});
