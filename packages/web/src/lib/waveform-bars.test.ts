import { describe, expect, it } from 'vitest';
import { waveformBars } from './waveform-bars.ts';

describe('waveformBars', () => {
  it('keeps short peak lists as they are, scaled to the loudest', () => {
    expect(waveformBars([0.1, 0.5, 0.25], 160)).toEqual([0.2, 1, 0.5]);
  });

  it('reduces long lists to the loudest peak of each stretch', () => {
    const bars = waveformBars([0.1, 0.4, 0.2, 0.8, 0.3, 0.1], 3);
    expect(bars.map((b) => b.toFixed(3))).toEqual(['0.500', '1.000', '0.375']);
    expect(waveformBars([0.1, 0.2, 0.4, 0.1, 0.05, 0.1], 3)).toEqual([0.5, 1, 0.25]);
    expect(
      waveformBars(
        Array.from({ length: 1000 }, (_, i) => i / 1000),
        160,
      ),
    ).toHaveLength(160);
  });

  it('leaves silence at zero and nothing as nothing', () => {
    expect(waveformBars([0, 0], 160)).toEqual([0, 0]);
    expect(waveformBars([], 160)).toEqual([]);
  });
});
