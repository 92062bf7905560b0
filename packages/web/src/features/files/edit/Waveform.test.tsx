import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loudnessText, Waveform, waveformBars } from './Waveform.tsx';

describe('waveformBars', () => {
  it('keeps short peak lists as they are, scaled to the loudest', () => {
    expect(waveformBars([0.1, 0.5, 0.25])).toEqual([0.2, 1, 0.5]);
  });

  it('reduces long lists to the loudest peak of each stretch', () => {
    const bars = waveformBars([0.1, 0.4, 0.2, 0.8, 0.3, 0.1], 3);
    expect(bars.map((b) => b.toFixed(3))).toEqual(['0.500', '1.000', '0.375']);
    expect(waveformBars(Array.from({ length: 1000 }, (_, i) => i / 1000))).toHaveLength(160);
  });

  it('leaves silence at zero and nothing as nothing', () => {
    expect(waveformBars([0, 0])).toEqual([0, 0]);
    expect(waveformBars([])).toEqual([]);
  });
});

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
