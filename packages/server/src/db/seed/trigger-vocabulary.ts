import { SITE_OWNER_ID } from '@mesmer/shared/domain/permissions';
import type { TriggerCategory } from '@mesmer/shared/domain/triggers';
import { and, eq, isNull, or } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { triggers } from '../schema/index.ts';

export interface VocabularyTrigger {
  name: string;
  category: TriggerCategory;
  description: string;
  /** The weighting table: 0.2 (a light touch) to 1 (a strong preference). */
  weight: number;
}

/**
 * The site's trigger vocabulary (docs/decisions/011-trigger-vocabulary.md): about 80 phrases in
 * eight categories, each with a weight. Six names are the demo library's core triggers, so the
 * demo's files link to these rows.
 */
export const TRIGGER_VOCABULARY: readonly VocabularyTrigger[] = [
  // Relaxation
  {
    category: 'Relaxation',
    name: 'Sleep Now',
    weight: 1,
    description: 'Drop straight into deep, restful trance.',
  },
  {
    category: 'Relaxation',
    name: 'Deep Breath',
    weight: 0.8,
    description: 'One slow breath releases tension from head to toe.',
  },
  {
    category: 'Relaxation',
    name: 'Melt',
    weight: 0.8,
    description: 'Muscles soften and sink, as if warm wax were settling into the chair.',
  },
  {
    category: 'Relaxation',
    name: 'Drift Down',
    weight: 0.7,
    description: 'Each count takes you one gentle step lower into calm.',
  },
  {
    category: 'Relaxation',
    name: 'Heavy Limbs',
    weight: 0.6,
    description: 'Arms and legs grow comfortably heavy and still.',
  },
  {
    category: 'Relaxation',
    name: 'Soft Landing',
    weight: 0.5,
    description: 'Settle back into trance as gently as a feather touching down.',
  },
  {
    category: 'Relaxation',
    name: 'Let Go',
    weight: 0.9,
    description: 'Release whatever you are holding on to, thoughts and shoulders alike.',
  },
  {
    category: 'Relaxation',
    name: 'Calm Waters',
    weight: 0.4,
    description: 'The mind becomes a still lake, each thought a fading ripple.',
  },
  {
    category: 'Relaxation',
    name: 'Sink Deeper',
    weight: 0.9,
    description: 'Whatever depth you are at, go twice as deep.',
  },
  {
    category: 'Relaxation',
    name: 'Rest Easy',
    weight: 0.3,
    description: 'A light, easy calm for moments when a full trance is not wanted.',
  },
  // Focus
  {
    category: 'Focus',
    name: 'Focus',
    weight: 1,
    description: 'Attention narrows to one thing, calm and clear.',
  },
  {
    category: 'Focus',
    name: 'Blank',
    weight: 0.9,
    description: 'Thoughts go quiet and the mind goes pleasantly empty.',
  },
  {
    category: 'Focus',
    name: 'Tunnel Vision',
    weight: 0.7,
    description: 'The edges of awareness fade until only the voice remains.',
  },
  {
    category: 'Focus',
    name: 'Lock On',
    weight: 0.6,
    description: 'Eyes and mind settle on a single point and stay there.',
  },
  {
    category: 'Focus',
    name: 'Clear Mind',
    weight: 0.8,
    description: 'Clutter clears away, leaving space for one idea at a time.',
  },
  {
    category: 'Focus',
    name: 'Single Point',
    weight: 0.5,
    description: 'All attention gathers into one small, bright point.',
  },
  {
    category: 'Focus',
    name: 'Hear Only Me',
    weight: 0.7,
    description: 'Background sounds fade; the voice in your ears is all that matters.',
  },
  {
    category: 'Focus',
    name: 'Still Mind',
    weight: 0.6,
    description: 'The inner chatter pauses and waits patiently.',
  },
  {
    category: 'Focus',
    name: 'Count Along',
    weight: 0.3,
    description: 'Following a count keeps attention gently anchored.',
  },
  {
    category: 'Focus',
    name: 'Sharp Focus',
    weight: 0.4,
    description: 'A crisp, alert concentration for study or work.',
  },
  // Obedience
  {
    category: 'Obedience',
    name: 'Listen Closely',
    weight: 0.8,
    description: 'Each word of the voice lands with extra weight and meaning.',
  },
  {
    category: 'Obedience',
    name: 'Follow Along',
    weight: 0.7,
    description: 'Suggestions feel easy and natural to go along with.',
  },
  {
    category: 'Obedience',
    name: 'Good Listener',
    weight: 0.6,
    description: 'A warm pride in paying attention and responding well.',
  },
  {
    category: 'Obedience',
    name: 'Yes',
    weight: 0.5,
    description: 'Agreement comes easily; saying yes feels pleasant and light.',
  },
  {
    category: 'Obedience',
    name: 'Freeze',
    weight: 0.9,
    description: 'The body pauses exactly where it is until released.',
  },
  {
    category: 'Obedience',
    name: 'Release',
    weight: 0.9,
    description: 'Whatever was frozen or held is free to move again.',
  },
  {
    category: 'Obedience',
    name: 'Echo',
    weight: 0.4,
    description: 'Repeat the phrase you hear, softly, as if it were your own thought.',
  },
  {
    category: 'Obedience',
    name: 'Attention',
    weight: 0.8,
    description: 'Snap to full, calm attention on the voice.',
  },
  {
    category: 'Obedience',
    name: 'Hold Still',
    weight: 0.5,
    description: 'Stay comfortably motionless without needing to try.',
  },
  {
    category: 'Obedience',
    name: 'Accept',
    weight: 0.3,
    description: 'Let a suggestion settle in without questioning it for now.',
  },
  // Sensation
  {
    category: 'Sensation',
    name: 'Good Feeling',
    weight: 1,
    description: 'A warm wave of contentment spreads through the body.',
  },
  {
    category: 'Sensation',
    name: 'Warm Glow',
    weight: 0.8,
    description: 'A gentle warmth starts in the chest and spreads outward.',
  },
  {
    category: 'Sensation',
    name: 'Tingles',
    weight: 0.7,
    description: 'Light, pleasant tingling travels across the scalp and neck.',
  },
  {
    category: 'Sensation',
    name: 'Cool Breeze',
    weight: 0.4,
    description: 'A refreshing coolness washes over the skin.',
  },
  {
    category: 'Sensation',
    name: 'Floating',
    weight: 0.8,
    description: 'The body feels weightless, drifting as if on water.',
  },
  {
    category: 'Sensation',
    name: 'Numb Hand',
    weight: 0.5,
    description: 'One hand grows pleasantly numb, as if wrapped in thick wool.',
  },
  {
    category: 'Sensation',
    name: 'Heartbeat',
    weight: 0.3,
    description: 'Notice your heartbeat slow and steady with each breath.',
  },
  {
    category: 'Sensation',
    name: 'Buzz',
    weight: 0.6,
    description: 'A soft hum of energy fills the body from head to toe.',
  },
  {
    category: 'Sensation',
    name: 'Weightless',
    weight: 0.7,
    description: 'Gravity seems to loosen its hold, and everything feels light.',
  },
  {
    category: 'Sensation',
    name: 'Sunlight',
    weight: 0.2,
    description: 'Imagine warm sunlight resting on your face and shoulders.',
  },
  // Memory
  {
    category: 'Memory',
    name: 'Forget',
    weight: 0.9,
    description: 'A chosen detail slips pleasantly out of reach until later.',
  },
  {
    category: 'Memory',
    name: 'Remember',
    weight: 0.9,
    description: 'Whatever was set aside comes back clearly.',
  },
  {
    category: 'Memory',
    name: 'Fade Away',
    weight: 0.7,
    description: 'The session blurs softly at the edges, like a dream on waking.',
  },
  {
    category: 'Memory',
    name: 'Lost Word',
    weight: 0.6,
    description: 'One harmless word hides just out of reach for a while.',
  },
  {
    category: 'Memory',
    name: 'Open Book',
    weight: 0.4,
    description: 'Memories of a calm, happy place come easily to mind.',
  },
  {
    category: 'Memory',
    name: 'Blank Page',
    weight: 0.5,
    description: 'The mind becomes a clean page, ready for a new suggestion.',
  },
  {
    category: 'Memory',
    name: 'Time Skip',
    weight: 0.8,
    description: 'Minutes pass in what seems like moments.',
  },
  {
    category: 'Memory',
    name: 'Dream Recall',
    weight: 0.3,
    description: 'Dreams stay vivid and easy to remember after waking.',
  },
  {
    category: 'Memory',
    name: 'Anchor',
    weight: 0.6,
    description: 'A small gesture brings back the feeling of this trance.',
  },
  {
    category: 'Memory',
    name: 'Rewind',
    weight: 0.2,
    description: 'Replay a pleasant moment from earlier in the session.',
  },
  // Wake-up
  {
    category: 'Wake-up',
    name: 'Wake Up',
    weight: 1,
    description: 'Return fully alert, refreshed and clear-headed.',
  },
  { category: 'Wake-up', name: 'Eyes Open', weight: 0.8, description: 'Eyes open easily, bright and awake.' },
  {
    category: 'Wake-up',
    name: 'Rise and Shine',
    weight: 0.7,
    description: 'Energy rises with each count from one to five.',
  },
  {
    category: 'Wake-up',
    name: 'Back to Now',
    weight: 0.9,
    description: 'Attention returns to the room, the time and the day.',
  },
  {
    category: 'Wake-up',
    name: 'Refreshed',
    weight: 0.6,
    description: 'Wake as rested as after a long, good sleep.',
  },
  {
    category: 'Wake-up',
    name: 'Stretch',
    weight: 0.4,
    description: 'A long, satisfying stretch brings the body fully back.',
  },
  {
    category: 'Wake-up',
    name: 'Alert',
    weight: 0.5,
    description: 'Mind and body switch on, clear and ready.',
  },
  {
    category: 'Wake-up',
    name: 'Ground',
    weight: 0.7,
    description: 'Feel your feet on the floor and your weight in the chair, steady and present.',
  },
  {
    category: 'Wake-up',
    name: 'Bright Morning',
    weight: 0.3,
    description: 'Wake with the easy cheer of a sunny morning.',
  },
  {
    category: 'Wake-up',
    name: 'All Clear',
    weight: 0.8,
    description: 'Every suggestion meant only for trance clears away on waking.',
  },
  // Mindset
  {
    category: 'Mindset',
    name: 'Confidence',
    weight: 0.9,
    description: 'Stand a little taller with a quiet certainty in yourself.',
  },
  {
    category: 'Mindset',
    name: 'Calm Courage',
    weight: 0.7,
    description: 'Face what comes next with a steady, calm mind.',
  },
  {
    category: 'Mindset',
    name: 'Gratitude',
    weight: 0.5,
    description: 'Notice three good things and let them warm you.',
  },
  {
    category: 'Mindset',
    name: 'Motivation',
    weight: 0.8,
    description: 'Starting the next task feels easy and even enjoyable.',
  },
  {
    category: 'Mindset',
    name: 'Patience',
    weight: 0.4,
    description: 'Waiting feels comfortable; there is no need to rush.',
  },
  {
    category: 'Mindset',
    name: 'Self Kindness',
    weight: 0.6,
    description: 'Speak to yourself as kindly as to a good friend.',
  },
  {
    category: 'Mindset',
    name: 'Let It Pass',
    weight: 0.7,
    description: 'Unhelpful thoughts drift by like clouds without taking hold.',
  },
  {
    category: 'Mindset',
    name: 'Fresh Start',
    weight: 0.5,
    description: 'Leave the day behind and begin again with a clear head.',
  },
  {
    category: 'Mindset',
    name: 'Steady',
    weight: 0.3,
    description: 'A calm, even keel, whatever happens around you.',
  },
  {
    category: 'Mindset',
    name: 'Bloom',
    weight: 0.2,
    description: 'A slow, hopeful feeling of growing into who you want to be.',
  },
  // Play
  {
    category: 'Play',
    name: 'Giggles',
    weight: 0.8,
    description: 'Everything seems a little funny, and laughter bubbles up.',
  },
  {
    category: 'Play',
    name: 'Silly Walk',
    weight: 0.4,
    description: 'Walking turns into a playful, exaggerated strut.',
  },
  {
    category: 'Play',
    name: 'Color Swap',
    weight: 0.5,
    description: 'Two colours trade places in your eyes until released.',
  },
  {
    category: 'Play',
    name: 'Sticky Hands',
    weight: 0.9,
    description: 'Hands stay pressed together as if lightly glued, until released.',
  },
  {
    category: 'Play',
    name: 'Balloon Arm',
    weight: 0.7,
    description: 'One arm floats upward, light as a balloon on a string.',
  },
  {
    category: 'Play',
    name: 'Name Game',
    weight: 0.6,
    description: 'Your own name feels curiously hard to say for a moment.',
  },
  {
    category: 'Play',
    name: 'Puppet',
    weight: 0.7,
    description: 'Limbs move as if on gentle strings guided by the voice.',
  },
  {
    category: 'Play',
    name: 'Sweet Taste',
    weight: 0.3,
    description: 'A glass of water tastes like your favourite juice.',
  },
  {
    category: 'Play',
    name: 'Snap',
    weight: 1,
    description: 'A finger snap drops you instantly back into trance.',
  },
  {
    category: 'Play',
    name: 'Pop',
    weight: 0.2,
    description: 'A playful bounce back to the surface, smiling.',
  },
];

/**
 * Inserts every vocabulary phrase not yet present (by name, ignoring case) and leaves
 * existing rows alone, so staff edits survive; idempotent, run at every start. The rows
 * have no creator: they belong to the site, not to an account (decision 011). A core
 * trigger made before the vocabulary existed (the demo's, by user 1) with a vocabulary
 * name and no category gets that phrase's category and weight.
 */
export async function seedTriggerVocabulary(db: Db) {
  await db
    .insert(triggers)
    .values(TRIGGER_VOCABULARY.map((t) => ({ ...t, creatorId: null })))
    .onConflictDoNothing();
  const byName = new Map(TRIGGER_VOCABULARY.map((t) => [t.name.toLowerCase(), t]));
  const uncategorised = await db
    .select({ id: triggers.id, name: triggers.name })
    .from(triggers)
    .where(
      and(isNull(triggers.category), or(isNull(triggers.creatorId), eq(triggers.creatorId, SITE_OWNER_ID))),
    );
  for (const row of uncategorised) {
    const phrase = byName.get(row.name.toLowerCase());
    if (phrase) {
      await db
        .update(triggers)
        .set({ category: phrase.category, weight: phrase.weight })
        .where(eq(triggers.id, row.id));
    }
  }
}
