import type { RoleName } from '@mesmer/shared/domain/permissions';
import type { Sound } from './demo-audio.ts';

/**
 * What the demo library holds. Authors and creators are usernames; 'mesmer' is the
 * site owner (user id 1), so its files, triggers and playlists are the core ones.
 */

export const DEMO_OWNER = 'mesmer';
/** The community accounts' password, documented in the README ("Demo accounts"). */
export const DEMO_PASSWORD = 'demo-password';

/** Points and streaks give a fresh install a leaderboard to look at. */
export const DEMO_USERS: {
  username: string;
  roles: RoleName[];
  biography: string;
  points: number;
  streak: number;
}[] = [
  {
    username: 'lunadrift',
    roles: ['Verified Creator'],
    biography: 'Soft-spoken sessions for slow evenings. **New files every full moon.**',
    points: 1337,
    streak: 12,
  },
  {
    username: 'velvetvoice',
    roles: ['Verified Creator'],
    biography: 'Whispered triggers and gentle loops.',
    points: 642,
    streak: 3,
  },
  {
    username: 'sonicmist',
    roles: ['Music Creator'],
    biography: 'Ambient music to drift to.',
    points: 215,
    streak: 1,
  },
];

export const DEMO_TIERS = [
  { id: '21902510', creatorName: 'Mesmer', title: 'Supporter', rank: 1, creator: 'mesmer' },
  { id: '21927318', creatorName: 'Mesmer', title: 'Devotee', rank: 2, creator: 'mesmer' },
  { id: 'luna-moonlight', creatorName: 'Luna Drift', title: 'Moonlight', rank: 1, creator: 'lunadrift' },
];

/**
 * Community triggers of the demo users. The core ones the demo files use (Sleep Now, Blank,
 * Focus, Deep Breath, Good Feeling, Wake Up) are part of the trigger vocabulary (trigger-vocabulary.ts).
 */
export const DEMO_TRIGGERS: { name: string; description: string; creator: string }[] = [
  { name: 'Velvet Touch', description: 'A soft tingle wherever the voice suggests.', creator: 'velvetvoice' },
  { name: 'Moon Glow', description: 'A calm silver light that deepens relaxation.', creator: 'lunadrift' },
];

export const DEMO_TAGS = ['ambient', 'binaural', 'breathing', 'focus', 'relaxation', 'sleep', 'voice-free'];

export interface DemoFile {
  key: string;
  name: string;
  description: string;
  fileType: number;
  seconds: number;
  sound: Sound;
  author: string;
  /** Days before the seeding day. */
  releasedDaysAgo: number;
  plays: number;
  haptics?: boolean;
  script?: string;
  warnings?: string[];
  tiers?: string[];
  triggers?: { name: string; trains?: boolean }[];
  tags?: string[];
  isPublic?: boolean;
  trackNumber?: number;
}

const BINAURAL_WARNING = 'Contains binaural beats: do not listen while driving or operating machinery.';
const DEEP_WARNING = 'Leads into very deep trance; listen only where you can safely rest afterwards.';

export const DEMO_FILES: DemoFile[] = [
  // Core library by the site owner.
  {
    key: 'drifting-down',
    name: 'Drifting Down',
    description: 'A slow countdown on a warm brown-noise bed.',
    fileType: 1,
    seconds: 45,
    sound: { kind: 'pad', freqs: [110, 165, 220], bed: 'brown' },
    author: 'mesmer',
    releasedDaysAgo: 40,
    plays: 12840,
    haptics: true,
    script: 'Let your eyes close... ten... nine... each number a step further down...',
    triggers: [{ name: 'Deep Breath' }],
    tags: ['relaxation'],
    trackNumber: 1,
  },
  {
    key: 'staircase-of-light',
    name: 'Staircase of Light',
    description: 'Binaural theta beats while you walk down a staircase of light.',
    fileType: 1,
    seconds: 30,
    sound: { kind: 'binaural', base: 180, beat: 6, bed: 'pink' },
    author: 'mesmer',
    releasedDaysAgo: 33,
    plays: 3120,
    warnings: [BINAURAL_WARNING],
    tags: ['binaural'],
    trackNumber: 2,
  },
  {
    key: 'ocean-breath',
    name: 'Ocean Breath',
    description: 'Breathe with the waves until everything slows down.',
    fileType: 1,
    seconds: 30,
    sound: { kind: 'waves', color: 'pink', swell: 8 },
    author: 'mesmer',
    releasedDaysAgo: 52,
    plays: 5400,
    triggers: [{ name: 'Deep Breath', trains: true }],
    tags: ['breathing', 'relaxation'],
    trackNumber: 3,
  },
  {
    key: 'deeper-still',
    name: 'Deeper Still',
    description: 'Every breath takes you twice as deep.',
    fileType: 2,
    seconds: 30,
    sound: { kind: 'waves', color: 'brown', swell: 10 },
    author: 'mesmer',
    releasedDaysAgo: 38,
    plays: 4410,
    haptics: true,
    triggers: [{ name: 'Blank' }],
    tags: ['relaxation'],
  },
  {
    key: 'velvet-fog',
    name: 'Velvet Fog',
    description: 'A soft grey fog settles over every thought.',
    fileType: 2,
    seconds: 25,
    sound: { kind: 'pad', freqs: [146.8, 220, 293.7] },
    author: 'mesmer',
    releasedDaysAgo: 30,
    plays: 980,
    tiers: ['21927318'],
    triggers: [{ name: 'Blank' }],
  },
  {
    key: 'falling-feather',
    name: 'Falling Feather',
    description: 'Drift down like a feather on slow binaural delta beats.',
    fileType: 2,
    seconds: 20,
    sound: { kind: 'binaural', base: 150, beat: 4 },
    author: 'mesmer',
    releasedDaysAgo: 28,
    plays: 760,
    warnings: [BINAURAL_WARNING],
    tags: ['binaural'],
  },
  {
    key: 'sleep-now',
    name: 'Sleep Now',
    description: 'Installs the Sleep Now trigger with a gentle chime.',
    fileType: 3,
    seconds: 20,
    sound: { kind: 'chimes', freq: 528, every: 5 },
    author: 'mesmer',
    releasedDaysAgo: 25,
    plays: 6010,
    haptics: true,
    script: 'When you hear the chime and the words "sleep now", you let go completely.',
    triggers: [{ name: 'Sleep Now', trains: true }],
    tags: ['sleep'],
  },
  {
    key: 'blank-and-empty',
    name: 'Blank and Empty',
    description: 'Trains the Blank trigger.',
    fileType: 3,
    seconds: 15,
    sound: { kind: 'pad', freqs: [196, 392] },
    author: 'mesmer',
    releasedDaysAgo: 22,
    plays: 2300,
    triggers: [{ name: 'Blank', trains: true }],
  },
  {
    key: 'focus-pulse',
    name: 'Focus Pulse',
    description: 'A clear pulse that trains the Focus trigger.',
    fileType: 3,
    seconds: 12,
    sound: { kind: 'pulse', freq: 220, bpm: 72 },
    author: 'mesmer',
    releasedDaysAgo: 3,
    plays: 140,
    haptics: true,
    triggers: [{ name: 'Focus', trains: true }],
    tags: ['focus'],
  },
  {
    key: 'calm-confidence',
    name: 'Calm Confidence',
    description: 'Suggestions for quiet, steady confidence.',
    fileType: 4,
    seconds: 30,
    sound: { kind: 'pad', freqs: [130.8, 196, 261.6], bed: 'pink' },
    author: 'mesmer',
    releasedDaysAgo: 20,
    plays: 1900,
    haptics: true,
    triggers: [{ name: 'Good Feeling' }],
  },
  {
    key: 'restful-nights',
    name: 'Restful Nights',
    description: 'Suggestions for falling asleep easily every night.',
    fileType: 4,
    seconds: 25,
    sound: { kind: 'waves', color: 'brown', swell: 12 },
    author: 'mesmer',
    releasedDaysAgo: 18,
    plays: 2750,
    script: 'Each night, as your head touches the pillow, sleep comes easily...',
    triggers: [{ name: 'Sleep Now' }],
    tags: ['sleep'],
  },
  {
    key: 'morning-energy',
    name: 'Morning Energy',
    description: 'Start the day bright and motivated.',
    fileType: 4,
    seconds: 15,
    sound: { kind: 'pad', freqs: [261.6, 329.6, 392] },
    author: 'mesmer',
    releasedDaysAgo: 2,
    plays: 45,
    tags: ['focus'],
  },
  {
    key: 'soft-spiral-loop',
    name: 'Soft Spiral Loop',
    description: 'A short loop to stay in trance as long as you like.',
    fileType: 5,
    seconds: 10,
    sound: { kind: 'pad', freqs: [174.6, 261.6] },
    author: 'mesmer',
    releasedDaysAgo: 15,
    plays: 820,
    haptics: true,
    tags: ['voice-free'],
  },
  {
    key: 'heartbeat-loop',
    name: 'Heartbeat Loop',
    description: 'A slow heartbeat to sink into.',
    fileType: 5,
    seconds: 12,
    sound: { kind: 'pulse', freq: 70, bpm: 56 },
    author: 'mesmer',
    releasedDaysAgo: 14,
    plays: 610,
    haptics: true,
    tags: ['voice-free'],
  },
  {
    key: 'gentle-return',
    name: 'Gentle Return',
    description: 'Counting up from one to five, back to full awareness.',
    fileType: 6,
    seconds: 15,
    sound: { kind: 'rise', from: 196, to: 392 },
    author: 'mesmer',
    releasedDaysAgo: 35,
    plays: 7200,
    haptics: true,
    triggers: [{ name: 'Wake Up', trains: true }],
  },
  {
    key: 'wide-awake',
    name: 'Wide Awake',
    description: 'A bright, energising wake-up.',
    fileType: 6,
    seconds: 12,
    sound: { kind: 'rise', from: 262, to: 523 },
    author: 'mesmer',
    releasedDaysAgo: 26,
    plays: 2100,
    triggers: [{ name: 'Wake Up' }],
  },
  {
    key: 'bright-morning-wake',
    name: 'Bright Morning Wake',
    description: 'Short and sunny.',
    fileType: 6,
    seconds: 10,
    sound: { kind: 'chimes', freq: 659, every: 2.5 },
    author: 'mesmer',
    releasedDaysAgo: 12,
    plays: 430,
  },
  {
    key: 'still-water',
    name: 'Still Water',
    description: 'Two and a half minutes of slow, breathing harmony.',
    fileType: 7,
    seconds: 150,
    sound: { kind: 'pad', freqs: [110, 138.6, 164.8, 220] },
    author: 'mesmer',
    releasedDaysAgo: 45,
    plays: 3900,
    tags: ['ambient', 'voice-free'],
  },
  {
    key: 'midnight-drones',
    name: 'Midnight Drones',
    description: 'Low drones over brown noise.',
    fileType: 7,
    seconds: 40,
    sound: { kind: 'pad', freqs: [55, 82.4, 110], bed: 'brown' },
    author: 'mesmer',
    releasedDaysAgo: 10,
    plays: 1200,
    tags: ['ambient', 'sleep', 'voice-free'],
  },
  {
    key: 'the-deep-session',
    name: 'The Deep Session',
    description: 'A complete session: induction, deepening and a slow return. For supporters.',
    fileType: 8,
    seconds: 90,
    sound: { kind: 'pad', freqs: [98, 146.8, 196], bed: 'pink' },
    author: 'mesmer',
    releasedDaysAgo: 6,
    plays: 2600,
    haptics: true,
    script: 'Settle in. This session takes you deeper than before...',
    warnings: [DEEP_WARNING],
    tiers: ['21902510'],
    triggers: [{ name: 'Sleep Now' }, { name: 'Blank' }],
    tags: ['relaxation'],
  },
  {
    key: 'theta-garden',
    name: 'Theta Garden',
    description: 'Generated music with a theta binaural beat.',
    fileType: 9,
    seconds: 30,
    sound: { kind: 'binaural', base: 200, beat: 5, bed: 'pink' },
    author: 'mesmer',
    releasedDaysAgo: 8,
    plays: 510,
    warnings: [BINAURAL_WARNING],
    tags: ['ambient', 'binaural'],
  },
  {
    key: 'synthetic-tides',
    name: 'Synthetic Tides',
    description: 'Generated waves and tones.',
    fileType: 9,
    seconds: 30,
    sound: { kind: 'waves', color: 'pink', swell: 6 },
    author: 'mesmer',
    releasedDaysAgo: 1,
    plays: 12,
    tags: ['ambient'],
  },
  // Community files.
  {
    key: 'moonlit-induction',
    name: 'Moonlit Induction',
    description: "Luna's signature induction, for Moonlight members.",
    fileType: 1,
    seconds: 30,
    sound: { kind: 'pad', freqs: [123.5, 185, 246.9], bed: 'pink' },
    author: 'lunadrift',
    releasedDaysAgo: 21,
    plays: 880,
    haptics: true,
    tiers: ['luna-moonlight'],
    triggers: [{ name: 'Moon Glow', trains: true }],
  },
  {
    key: 'silver-deepener',
    name: 'Silver Deepener',
    description: 'Sink into silver light.',
    fileType: 2,
    seconds: 25,
    sound: { kind: 'waves', color: 'pink', swell: 9 },
    author: 'lunadrift',
    releasedDaysAgo: 19,
    plays: 640,
    triggers: [{ name: 'Moon Glow' }],
  },
  {
    key: 'dream-suggestions',
    name: 'Dream Suggestions',
    description: 'Suggestions for vivid, peaceful dreams.',
    fileType: 4,
    seconds: 20,
    sound: { kind: 'pad', freqs: [164.8, 246.9] },
    author: 'lunadrift',
    releasedDaysAgo: 4,
    plays: 90,
    script: 'Tonight your dreams are calm, bright and kind...',
    tags: ['sleep'],
  },
  {
    key: 'unreleased-draft',
    name: 'Unreleased Draft',
    description: 'Work in progress, only visible to its uploader.',
    fileType: 4,
    seconds: 10,
    sound: { kind: 'pad', freqs: [220, 277.2] },
    author: 'lunadrift',
    releasedDaysAgo: 0,
    plays: 0,
    isPublic: false,
  },
  {
    key: 'velvet-whispers',
    name: 'Velvet Whispers',
    description: 'Trains the Velvet Touch trigger.',
    fileType: 3,
    seconds: 20,
    sound: { kind: 'chimes', freq: 440, every: 4 },
    author: 'velvetvoice',
    releasedDaysAgo: 16,
    plays: 1500,
    haptics: true,
    triggers: [{ name: 'Velvet Touch', trains: true }, { name: 'Good Feeling' }],
  },
  {
    key: 'velvet-loop',
    name: 'Velvet Loop',
    description: 'A velvet-soft loop.',
    fileType: 5,
    seconds: 12,
    sound: { kind: 'pulse', freq: 110, bpm: 60 },
    author: 'velvetvoice',
    releasedDaysAgo: 11,
    plays: 300,
    triggers: [{ name: 'Velvet Touch' }],
  },
  {
    key: 'velvet-wake',
    name: 'Velvet Wake',
    description: 'Wake gently, keeping the good feeling.',
    fileType: 6,
    seconds: 12,
    sound: { kind: 'rise', from: 220, to: 440 },
    author: 'velvetvoice',
    releasedDaysAgo: 9,
    plays: 410,
    triggers: [{ name: 'Wake Up' }],
  },
  {
    key: 'velvet-evening-session',
    name: 'Velvet Evening Session',
    description: 'A complete evening session with whispered triggers.',
    fileType: 8,
    seconds: 45,
    sound: { kind: 'pad', freqs: [130.8, 164.8, 196], bed: 'brown' },
    author: 'velvetvoice',
    releasedDaysAgo: 5,
    plays: 700,
    haptics: true,
    warnings: [DEEP_WARNING],
    triggers: [{ name: 'Velvet Touch' }, { name: 'Sleep Now' }],
  },
  {
    key: 'mist-ambient',
    name: 'Mist Ambient',
    description: 'Misty ambient textures.',
    fileType: 7,
    seconds: 45,
    sound: { kind: 'pad', freqs: [87.3, 130.8, 174.6], bed: 'pink' },
    author: 'sonicmist',
    releasedDaysAgo: 13,
    plays: 950,
    tags: ['ambient', 'voice-free'],
  },
  {
    key: 'low-hum',
    name: 'Low Hum',
    description: 'A low, steady hum.',
    fileType: 7,
    seconds: 20,
    sound: { kind: 'pad', freqs: [65.4, 98] },
    author: 'sonicmist',
    releasedDaysAgo: 7,
    plays: 220,
    tags: ['voice-free'],
  },
  {
    key: 'neon-rain',
    name: 'Neon Rain',
    description: 'Generated rain over synth chords.',
    fileType: 9,
    seconds: 30,
    sound: { kind: 'waves', color: 'pink', swell: 4 },
    author: 'sonicmist',
    releasedDaysAgo: 3,
    plays: 160,
    tags: ['ambient'],
  },
];

export interface DemoPlaylist {
  name: string;
  description: string;
  expLevel: number;
  creator: string;
  isCore?: boolean;
  isPublic?: boolean;
  /** File keys in order; a leading '!' marks the entry disabled. */
  files: string[];
  createdDaysAgo: number;
  likedBy?: string[];
  dislikedBy?: string[];
  favoritedBy?: string[];
}

export const DEMO_PLAYLISTS: DemoPlaylist[] = [
  {
    name: 'First Steps',
    description: 'A gentle first trance: breathe, relax and come back refreshed.',
    expLevel: 1,
    creator: 'mesmer',
    isCore: true,
    files: ['ocean-breath', 'deeper-still', 'calm-confidence', 'gentle-return'],
    createdDaysAgo: 50,
    favoritedBy: ['lunadrift', 'sonicmist'],
  },
  {
    name: 'Deep Relaxation',
    description: 'Longer and deeper, with a binaural deepener.',
    expLevel: 2,
    creator: 'mesmer',
    isCore: true,
    files: ['drifting-down', 'velvet-fog', 'falling-feather', 'restful-nights', 'wide-awake'],
    createdDaysAgo: 40,
  },
  {
    name: 'Sleep Trigger Training',
    description: 'Learn the Sleep Now trigger.',
    expLevel: 3,
    creator: 'mesmer',
    isCore: true,
    files: [
      'staircase-of-light',
      'deeper-still',
      'sleep-now',
      'soft-spiral-loop',
      'sleep-now',
      'gentle-return',
    ],
    createdDaysAgo: 24,
  },
  {
    name: 'The Deep End',
    description: 'For experienced listeners.',
    expLevel: 4,
    creator: 'mesmer',
    isCore: true,
    files: ['drifting-down', 'the-deep-session', 'bright-morning-wake'],
    createdDaysAgo: 6,
  },
  {
    name: 'Music for Drifting',
    description: 'Voice-free music to relax or fall asleep to.',
    expLevel: 1,
    creator: 'mesmer',
    isCore: true,
    files: ['still-water', 'midnight-drones', 'theta-garden'],
    createdDaysAgo: 9,
  },
  {
    name: 'Moonlit Evening',
    description: 'An evening with Luna and friends.',
    expLevel: 2,
    creator: 'lunadrift',
    isPublic: true,
    files: ['moonlit-induction', 'silver-deepener', '!velvet-whispers', 'dream-suggestions', 'velvet-wake'],
    createdDaysAgo: 12,
    likedBy: ['velvetvoice', 'sonicmist'],
    favoritedBy: ['velvetvoice'],
  },
  {
    name: 'Velvet Hour',
    description: 'Whispers, loops and a full evening session.',
    expLevel: 3,
    creator: 'velvetvoice',
    isPublic: true,
    files: ['velvet-whispers', 'velvet-loop', 'velvet-evening-session', 'velvet-wake'],
    createdDaysAgo: 4,
    likedBy: ['lunadrift'],
    dislikedBy: ['sonicmist'],
  },
  {
    name: 'Ambient Focus',
    description: 'Music for deep work.',
    expLevel: 1,
    creator: 'sonicmist',
    isPublic: true,
    files: ['mist-ambient', 'neon-rain', 'low-hum'],
    createdDaysAgo: 2,
    favoritedBy: ['lunadrift'],
  },
  {
    name: 'Work in Progress',
    description: 'Private drafts.',
    expLevel: 1,
    creator: 'lunadrift',
    isPublic: false,
    files: ['unreleased-draft', 'silver-deepener'],
    createdDaysAgo: 1,
  },
];

export const DEMO_PLANS: { name: string; description: string; days: DemoPlaylist[] }[] = [
  {
    name: 'Relaxation Basics',
    description: 'Three days from your first trance to a full relaxation session.',
    days: [
      {
        name: 'Relaxation Basics: Day 1',
        description: 'Breathing and a first deepener.',
        expLevel: 1,
        creator: 'mesmer',
        isCore: true,
        files: ['ocean-breath', 'deeper-still', 'gentle-return'],
        createdDaysAgo: 30,
      },
      {
        name: 'Relaxation Basics: Day 2',
        description: 'A little deeper.',
        expLevel: 1,
        creator: 'mesmer',
        isCore: true,
        files: ['drifting-down', 'velvet-fog', 'calm-confidence', 'gentle-return'],
        createdDaysAgo: 30,
      },
      {
        name: 'Relaxation Basics: Day 3',
        description: 'The full session.',
        expLevel: 2,
        creator: 'mesmer',
        isCore: true,
        files: ['staircase-of-light', 'falling-feather', 'restful-nights', 'wide-awake'],
        createdDaysAgo: 30,
      },
    ],
  },
  {
    name: 'Trigger Foundations',
    description: 'Four days that install the core triggers one by one.',
    days: [
      {
        name: 'Trigger Foundations: Day 1',
        description: 'Deep Breath.',
        expLevel: 2,
        creator: 'mesmer',
        isCore: true,
        files: ['ocean-breath', 'deeper-still', 'gentle-return'],
        createdDaysAgo: 20,
      },
      {
        name: 'Trigger Foundations: Day 2',
        description: 'Sleep Now.',
        expLevel: 2,
        creator: 'mesmer',
        isCore: true,
        files: ['drifting-down', 'sleep-now', 'gentle-return'],
        createdDaysAgo: 20,
      },
      {
        name: 'Trigger Foundations: Day 3',
        description: 'Blank.',
        expLevel: 3,
        creator: 'mesmer',
        isCore: true,
        files: ['staircase-of-light', 'blank-and-empty', 'soft-spiral-loop', 'wide-awake'],
        createdDaysAgo: 20,
      },
      {
        name: 'Trigger Foundations: Day 4',
        description: 'Focus, and everything together.',
        expLevel: 3,
        creator: 'mesmer',
        isCore: true,
        files: ['drifting-down', 'focus-pulse', 'sleep-now', 'blank-and-empty', 'gentle-return'],
        createdDaysAgo: 20,
      },
    ],
  },
];

/** Triggers a demo user marked as trained (0) or in training (1). */
export const DEMO_USER_TRIGGERS = [
  { username: 'lunadrift', trigger: 'Sleep Now', trainingAmount: 0 },
  { username: 'lunadrift', trigger: 'Focus', trainingAmount: 1 },
];
