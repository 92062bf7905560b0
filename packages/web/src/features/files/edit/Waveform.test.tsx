import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { playerStore } from '../../../player/store.ts';
import { audioFile, json, renderWithProviders } from '../../../test/testing.tsx';
import { FileWaveform, loudnessText, Waveform } from './Waveform.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('loudnessText', () => {
  it('shows one decimal', () => {
    expect(loudnessText(-14.24)).toBe('Loudness: -14.2 LUFS');
    expect(loudnessText(-9)).toBe('Loudness: -9.0 LUFS');
  });
});

describe('Waveform', () => {
  it('is an image with one bar per peak and no played part when the file is not playing', () => {
    const { container } = render(<Waveform peaks={[0.2, 1, 0.5]} progress={null} />);
    expect(screen.getByRole('img', { name: 'Waveform' })).toBeInTheDocument();
    expect(container.querySelector('path')?.getAttribute('d')?.match(/M/g)).toHaveLength(3);
    expect(screen.queryByTestId('waveform-played')).not.toBeInTheDocument();
  });

  it('shows how much is played while the file is the current track', () => {
    const { container } = render(<Waveform peaks={[0.2, 1, 0.5, 0.4]} progress={0.25} />);
    expect(screen.getByRole('img', { name: 'Waveform, 25% played' })).toBeInTheDocument();
    expect(screen.getByTestId('waveform-played')).toBeInTheDocument();
    expect(container.querySelector('clipPath rect')?.getAttribute('width')).toBe('1');
  });

  it('draws nothing without peaks', () => {
    const { container } = render(<Waveform peaks={[]} progress={null} />);
    expect(container).toBeEmptyDOMElement();
  });
});

describe('FileWaveform', () => {
  it("follows the player while the file is the current track, and not another file's progress", async () => {
    const file = audioFile();
    const other = audioFile();
    const initial = playerStore.getState();
    renderWithProviders(<FileWaveform fileId={file.id} />, {
      fetchImpl: () => json(200, { peaks: [0.2, 0.6, 1, 0.4], loudness: -16 }),
    });
    expect(await screen.findByRole('img', { name: 'Waveform' })).toBeInTheDocument();
    expect(screen.getByText('Loudness: -16.0 LUFS')).toBeInTheDocument();

    act(() =>
      playerStore.setState({
        queue: { ...initial.queue, tracks: [other, file], index: 1 },
        position: 30,
        duration: 120,
      }),
    );
    expect(screen.getByRole('img', { name: 'Waveform, 25% played' })).toBeInTheDocument();
    act(() => playerStore.setState({ position: 90 }));
    expect(screen.getByRole('img', { name: 'Waveform, 75% played' })).toBeInTheDocument();
    act(() => playerStore.setState({ queue: { ...initial.queue, tracks: [other, file], index: 0 } }));
    expect(screen.getByRole('img', { name: 'Waveform' })).toBeInTheDocument();
    act(() => playerStore.setState(initial, true));
  });
});
