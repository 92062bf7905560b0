/**
 * Real, playable audio for the demo library, made in code (no binary files in the
 * repository): 16-bit PCM WAV at 22050 Hz, mono except binaural beats (stereo).
 */

export const DEMO_SAMPLE_RATE = 22050;

export type NoiseColor = 'pink' | 'brown';

export type Sound =
  /** A soft chord that breathes, optionally over a noise bed. */
  | { kind: 'pad'; freqs: number[]; bed?: NoiseColor }
  /** Two tones `beat` Hz apart, one per ear (stereo). */
  | { kind: 'binaural'; base: number; beat: number; bed?: NoiseColor }
  /** A noise bed swelling like waves every `swell` seconds. */
  | { kind: 'waves'; color: NoiseColor; swell: number }
  /** Bell strikes every `every` seconds over a quiet drone. */
  | { kind: 'chimes'; freq: number; every: number }
  /** A tone gliding upward, for awakeners. */
  | { kind: 'rise'; from: number; to: number }
  /** A low pulse like a slow heartbeat, for loops. */
  | { kind: 'pulse'; freq: number; bpm: number };

/** Mulberry32: a small seeded generator so the demo audio is the same on every install. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function noise(color: NoiseColor, length: number, random: () => number, level: number): Float32Array {
  const out = new Float32Array(length);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let brown = 0;
  for (let i = 0; i < length; i++) {
    const white = random() * 2 - 1;
    if (color === 'pink') {
      // Paul Kellet's economy pink filter.
      b0 = 0.99765 * b0 + white * 0.099046;
      b1 = 0.963 * b1 + white * 0.2965164;
      b2 = 0.57 * b2 + white * 1.0526913;
      out[i] = (b0 + b1 + b2 + white * 0.1848) * 0.2 * level;
    } else {
      brown = (brown + 0.02 * white) / 1.02;
      out[i] = brown * 3.5 * level;
    }
  }
  return out;
}

function addInto(target: Float32Array, source: Float32Array) {
  for (let i = 0; i < target.length; i++) target[i] += source[i];
}

/** Renders `seconds` of a sound as one Float32Array per channel, with gentle fades. */
export function renderSound(sound: Sound, seconds: number, seed: number): Float32Array[] {
  const rate = DEMO_SAMPLE_RATE;
  const length = Math.round(seconds * rate);
  const random = seededRandom(seed);
  const tau = 2 * Math.PI;
  const mono = new Float32Array(length);
  let channels: Float32Array[] = [mono];

  switch (sound.kind) {
    case 'pad': {
      for (let i = 0; i < length; i++) {
        const t = i / rate;
        let v = 0;
        for (let k = 0; k < sound.freqs.length; k++) {
          const breathe = 0.6 + 0.4 * Math.sin(tau * (0.05 + k * 0.013) * t + k);
          v += Math.sin(tau * sound.freqs[k] * t) * breathe;
        }
        mono[i] = (v / sound.freqs.length) * 0.35;
      }
      if (sound.bed) addInto(mono, noise(sound.bed, length, random, 0.25));
      break;
    }
    case 'binaural': {
      const left = new Float32Array(length);
      const right = new Float32Array(length);
      const bed = sound.bed ? noise(sound.bed, length, random, 0.2) : null;
      for (let i = 0; i < length; i++) {
        const t = i / rate;
        left[i] = Math.sin(tau * sound.base * t) * 0.3 + (bed?.[i] ?? 0);
        right[i] = Math.sin(tau * (sound.base + sound.beat) * t) * 0.3 + (bed?.[i] ?? 0);
      }
      channels = [left, right];
      break;
    }
    case 'waves': {
      const bed = noise(sound.color, length, random, 1);
      for (let i = 0; i < length; i++) {
        const swell = 0.35 + 0.65 * (0.5 - 0.5 * Math.cos((tau * i) / (rate * sound.swell)));
        mono[i] = bed[i] * swell * 0.6;
      }
      break;
    }
    case 'chimes': {
      const period = Math.round(sound.every * rate);
      for (let i = 0; i < length; i++) {
        const t = i / rate;
        const sinceStrike = (i % period) / rate;
        const bell =
          Math.exp(-sinceStrike * 1.8) *
          (Math.sin(tau * sound.freq * t) + 0.4 * Math.sin(tau * sound.freq * 2.76 * t));
        mono[i] = bell * 0.3 + Math.sin(tau * (sound.freq / 4) * t) * 0.08;
      }
      break;
    }
    case 'rise': {
      let phase = 0;
      for (let i = 0; i < length; i++) {
        const freq = sound.from + (sound.to - sound.from) * (i / length);
        phase += (tau * freq) / rate;
        mono[i] = Math.sin(phase) * 0.3 + Math.sin(phase * 1.5) * 0.1;
      }
      break;
    }
    case 'pulse': {
      const beat = (60 / sound.bpm) * rate;
      for (let i = 0; i < length; i++) {
        const t = i / rate;
        const sinceBeat = (i % beat) / rate;
        const thump =
          Math.exp(-sinceBeat * 9) +
          0.6 * Math.exp(-Math.max(0, sinceBeat - 0.22) * 9) * (sinceBeat > 0.22 ? 1 : 0);
        mono[i] = Math.sin(tau * sound.freq * t) * thump * 0.45;
      }
      break;
    }
  }

  const fade = Math.min(2 * rate, Math.floor(length / 5));
  for (const channel of channels) {
    for (let i = 0; i < fade; i++) {
      const gain = i / fade;
      channel[i] *= gain;
      channel[length - 1 - i] *= gain;
    }
  }
  return channels;
}

/** A complete WAV file (RIFF header + interleaved 16-bit little-endian PCM). */
export function encodeWav(channels: Float32Array[], sampleRate = DEMO_SAMPLE_RATE): Buffer {
  const frames = channels[0].length;
  const blockAlign = channels.length * 2;
  const dataSize = frames * blockAlign;
  const out = Buffer.alloc(44 + dataSize);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + dataSize, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(channels.length, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * blockAlign, 28);
  out.writeUInt16LE(blockAlign, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(dataSize, 40);
  let offset = 44;
  for (let i = 0; i < frames; i++) {
    for (const channel of channels) {
      const v = Math.max(-1, Math.min(1, channel[i]));
      out.writeInt16LE(Math.round(v * 32767), offset);
      offset += 2;
    }
  }
  return out;
}

/**
 * A haptic cue list for a track of `durationMs`: `[{time, stopTime, strength}]` in ms,
 * strength 0-1 (docs/decisions/005-content-library.md), a pulse every few seconds
 * that swells toward the middle of the track.
 */
export function demoHapticCues(durationMs: number, seed: number) {
  const random = seededRandom(seed);
  const cues: { time: number; stopTime: number; strength: number }[] = [];
  let time = 1500 + Math.floor(random() * 1500);
  while (time < durationMs - 2000) {
    const length = 600 + Math.floor(random() * 2400);
    const arc = Math.sin((Math.PI * time) / durationMs);
    const strength = Math.round((0.2 + 0.75 * arc * (0.6 + 0.4 * random())) * 100) / 100;
    cues.push({ time, stopTime: Math.min(time + length, durationMs), strength });
    time += length + 1500 + Math.floor(random() * 3000);
  }
  return cues;
}
