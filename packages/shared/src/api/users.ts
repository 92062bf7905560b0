import { z } from 'zod';
import { MAX_VIBRATION_RANGE, VIBRATION_OFFSET_RANGE } from '../domain/haptics-settings.ts';
import { timezone } from './common.ts';

export const role = z.object({
  name: z.string(),
  showBadge: z.boolean(),
  textColor: z.string(),
  background: z.string(),
});

export const userTrigger = z.object({
  id: z.number().int(),
  name: z.string(),
  /** 0 = trained, above 0 = in training. */
  trainingAmount: z.number().int(),
});

export const lovenseSettings = z.object({
  vibrationOffset: z
    .number()
    .int()
    .min(VIBRATION_OFFSET_RANGE.min)
    .max(VIBRATION_OFFSET_RANGE.max)
    .refine(
      (v) => v % VIBRATION_OFFSET_RANGE.step === 0,
      `must be a multiple of ${VIBRATION_OFFSET_RANGE.step}`,
    ),
  maxVibration: z.number().int().min(MAX_VIBRATION_RANGE.min).max(MAX_VIBRATION_RANGE.max),
});

export const membership = z.object({
  creatorName: z.string(),
  tierName: z.string(),
  tierId: z.string(),
  active: z.boolean(),
  cancelled: z.boolean(),
  lastVerified: z.string().nullable(),
});

/** What anyone may see of a user. */
export const publicUser = z.object({
  id: z.number().int(),
  username: z.string(),
  imageURL: z.string().nullable(),
  biography: z.string(),
  points: z.number().int(),
  streak: z.number().int(),
  roles: z.array(role),
  patreonName: z.string().nullable(),
  triggers: z.array(userTrigger),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUser>;

/** The signed-in user's own view of themselves. */
export const selfUser = publicUser.extend({
  email: z.string(),
  emailVerified: z.boolean(),
  timezone: z.string(),
  permissions: z.array(z.string()),
  censorTriggers: z.boolean(),
  hideLockedFiles: z.boolean(),
  patreonLinked: z.boolean(),
  patreonTiers: z.array(z.object({ name: z.string(), rank: z.number().int() })),
  memberships: z.array(membership),
  lovenseToken: z.string().nullable(),
  lovenseSettings: lovenseSettings,
});
export type SelfUser = z.infer<typeof selfUser>;

/** GET /api/user: yourself (null when signed out), or `?username=` anyone's public profile (404 if none). */
export const getUserQuery = z.object({ username: z.string().optional(), timezone: z.string().optional() });
export const getUserResponse = z.object({ user: z.union([selfUser, publicUser]).nullable() });

/** PUT /api/user: any subset of these fields. */
export const updateUserRequest = z
  .object({
    biography: z.string().max(5000, 'Biography must be at most 5000 characters.'),
    triggers: z
      .array(
        z.object({ triggerId: z.number().int().positive(), trainingAmount: z.number().int().min(0).max(1) }),
      )
      .max(500),
    lovenseSettings: lovenseSettings.partial(),
    censorTriggers: z.boolean(),
    hideLockedFiles: z.boolean(),
    timezone,
  })
  .partial()
  .strict();
export type UpdateUserRequest = z.infer<typeof updateUserRequest>;
export const updateUserResponse = z.object({ user: selfUser });
