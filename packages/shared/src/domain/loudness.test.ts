import { describe, expect, it } from 'vitest';
import { dbToGain, gainToDb, normalisationGain, peakLevel } from './loudness.ts';

describe('normalisationGain', () => {
  it('leaves a track of unknown loudness alone', () => {
    expect(normalisationGain(null, 0.5)).toBe(1);
    expect(normalisationGain(Number.NaN, null)).toBe(1);
  });

  it('lowers a loud track to -16 LUFS', () => {
    expect(gainToDb(normalisationGain(-10, 1))).toBeCloseTo(-6, 5);
    expect(gainToDb(normalisationGain(-10, null))).toBeCloseTo(-6, 5);
    expect(normalisationGain(-16, 0.9)).toBeCloseTo(1, 10);
  });

  it('lowers by at most 24 dB', () => {
    expect(gainToDb(normalisationGain(20, 1))).toBeCloseTo(-24, 5);
  });

  it('raises a quiet track only as far as its peak allows, keeping 1 dB of headroom', () => {
    // -20 LUFS wants +4 dB; a peak at 0.25 allows about +11 dB, so +4 dB it is.
    expect(gainToDb(normalisationGain(-20, 0.25))).toBeCloseTo(4, 5);
    // A peak at 0.8 allows only 20·log10(0.891/0.8) ≈ +0.94 dB.
    const gain = normalisationGain(-20, 0.8);
    expect(gain * 0.8).toBeLessThanOrEqual(dbToGain(-1) + 1e-12);
    expect(gain).toBeGreaterThan(1);
  });

  it('raises by at most 6 dB, and not at all without a known peak or at full scale', () => {
    expect(gainToDb(normalisationGain(-40, 0.05))).toBeCloseTo(6, 5);
    expect(normalisationGain(-30, null)).toBe(1);
    expect(normalisationGain(-30, 1)).toBe(1);
  });

  it('never makes a track clip', () => {
    for (const loudness of [-40, -30, -23, -16, -9, -3]) {
      for (const peak of [0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 1]) {
        const gain = normalisationGain(loudness, peak);
        expect(gain <= 1 || gain * peak <= 1).toBe(true);
      }
    }
  });
});

describe('peakLevel', () => {
  it('is the highest stored peak, or null when there is none', () => {
    expect(peakLevel([0.1, 0.7, 0.3])).toBe(0.7);
    expect(peakLevel([])).toBeNull();
    expect(peakLevel([0, 0])).toBeNull();
  });
});
