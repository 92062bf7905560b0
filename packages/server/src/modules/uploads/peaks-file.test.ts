import { describe, expect, it } from 'vitest';
import { decodePeaksHeader, encodePeaks, PEAKS_HEADER_BYTES } from './peaks-file.ts';

describe('the stored peaks', () => {
  it('hold a header and every level, finest first, one byte a peak', () => {
    const fine = Uint8Array.from({ length: 4001 }, (_, i) => i % 256);
    const bytes = encodePeaks(fine);
    const header = decodePeaksHeader(bytes);
    // 4,001 → 1,001 → 251 peaks.
    expect(header).toEqual({
      baseMs: 5,
      factor: 4,
      lengths: [4001, 1001, 251],
      offsets: [PEAKS_HEADER_BYTES, PEAKS_HEADER_BYTES + 4001, PEAKS_HEADER_BYTES + 5002],
    });
    expect(bytes.length).toBe(PEAKS_HEADER_BYTES + 4001 + 1001 + 251);
    expect([...bytes.subarray(PEAKS_HEADER_BYTES, PEAKS_HEADER_BYTES + 5)]).toEqual([0, 1, 2, 3, 4]);
    // Level 1, peak 0: the largest of fine 0-3; peak 64: of 256-259 (0-3 again).
    expect(bytes[PEAKS_HEADER_BYTES + 4001]).toBe(3);
    expect(bytes[PEAKS_HEADER_BYTES + 4001 + 63]).toBe(255);
    expect(bytes[PEAKS_HEADER_BYTES + 4001 + 64]).toBe(3);
    // The last level-2 peak covers fine 4,000 alone.
    expect(bytes.at(-1)).toBe(4000 % 256);
  });

  it('are refused when the bytes are something else', () => {
    expect(decodePeaksHeader(Buffer.from('short'))).toBeNull();
    expect(decodePeaksHeader(Buffer.alloc(PEAKS_HEADER_BYTES))).toBeNull();
    const bad = encodePeaks(new Uint8Array(10));
    bad.writeUInt32LE(99, 12);
    expect(decodePeaksHeader(bad)).toBeNull();
  });
});
