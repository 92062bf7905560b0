import { z } from 'zod';
import { MAX_VIBRATION_RANGE, VIBRATION_OFFSET_RANGE } from '../domain/haptics-settings.ts';
import { TEXT_LIMITS } from '../domain/limits.ts';
import { GRANTABLE_ROLES } from '../domain/permissions.ts';
import { MAX_AVATAR_BYTES, usersRoutes } from '../routes/users.ts';
import { errorResponse, id, int, queryId, text, timezone } from './common.ts';
import { defineRoute } from './contract.ts';

export { AVATAR_TOO_LARGE_MESSAGE, MAX_AVATAR_BYTES } from '../routes/users.ts';

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
  /** Not counted in creators' insights (plays still count in play counts). */
  insightsOptOut: z.boolean(),
  patreonLinked: z.boolean(),
  patreonTiers: z.array(z.object({ name: z.string(), rank: z.number().int() })),
  memberships: z.array(membership),
  lovenseToken: z.string().nullable(),
  lovenseSettings: lovenseSettings,
});
export type SelfUser = z.infer<typeof selfUser>;

/** GET /api/user: yourself (null when signed out), or `?username=` anyone's public profile (404 if none). */
export const getUserQuery = z.object({
  username: text(TEXT_LIMITS.username).optional(),
  timezone: text(64).optional(),
});
export const getUserResponse = z.object({ user: z.union([selfUser, publicUser]).nullable() });

/**
 * One trigger on PUT /api/user: 0 trained, 1 in training. The spec spells the keys
 * `triggerid` / `trainingamount`, the web `triggerId` / `trainingAmount`; both are read
 * and the service sees the camel-case shape.
 */
export const triggerSelection = z
  .object({
    triggerId: id.optional(),
    triggerid: id.optional(),
    trainingAmount: int(0, 1).optional(),
    trainingamount: int(0, 1).optional(),
  })
  .transform((s, ctx) => {
    const triggerId = s.triggerId ?? s.triggerid;
    const trainingAmount = s.trainingAmount ?? s.trainingamount;
    if (triggerId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['triggerId'], message: 'is required' });
    }
    if (trainingAmount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['trainingAmount'], message: 'is required' });
    }
    if (triggerId === undefined || trainingAmount === undefined) return z.NEVER;
    return { triggerId, trainingAmount };
  });

/** PUT /api/user: any subset of these fields. */
export const updateUserRequest = z
  .object({
    biography: text(TEXT_LIMITS.biography, `Biography must be at most ${TEXT_LIMITS.biography} characters.`),
    triggers: z.array(triggerSelection).max(500),
    lovenseSettings: lovenseSettings.partial(),
    censorTriggers: z.boolean(),
    hideLockedFiles: z.boolean(),
    insightsOptOut: z.boolean(),
    timezone,
  })
  .partial()
  .strict();
export type UpdateUserRequest = z.infer<typeof updateUserRequest>;
export const updateUserResponse = z.object({ user: selfUser });

/** PUT/DELETE /api/users/:id/roles: whose roles. */
export const userRolesParams = z.object({ id: queryId });
/**
 * One role an administrator may give or take (PUT body, DELETE query). Administrator is not
 * among them: it is given by `npm run admin` only.
 */
const grantableRole = z.enum(GRANTABLE_ROLES, { error: `must be one of ${GRANTABLE_ROLES.join(', ')}` });
export const userRoleChange = z.object({ role: grantableRole }).strict();
/** The user's roles after the change, as GET /api/user shows them. */
export const userRolesResponse = z.object({ roles: z.array(role) });

const roleChangeResponses = {
  200: userRolesResponse,
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
};

export const avatarUploadResponse = z.object({ url: z.string() });

/** One person in a friends list. */
export const friend = z.object({
  id: z.number().int(),
  username: z.string(),
  imageURL: z.string().nullable(),
});
export type Friend = z.infer<typeof friend>;
/** GET /api/user/friends: friends, requests to you (`incoming`) and your requests (`outgoing`). */
export const friendsResponse = z.object({
  friends: z.array(friend),
  incoming: z.array(friend),
  outgoing: z.array(friend),
});
export type FriendsList = z.infer<typeof friendsResponse>;
export const friendChange = z.object({ friendId: id }).strict();
export const friendRemoval = z.object({ friendId: queryId });

export const usersApi = {
  get: defineRoute(usersRoutes.get, {
    tags: ['users'],
    summary: 'The signed-in user (null when signed out), or ?username= anyone’s public profile',
    description:
      'Reads only: `timezone` is accepted (the spec sends it) but never stored here; the time zone ' +
      'changes through sign-in, POST /api/session or PUT /api/user, at most once a day.',
    query: getUserQuery,
    responses: { 200: getUserResponse, 404: errorResponse },
  }),
  update: defineRoute(usersRoutes.update, {
    tags: ['users'],
    summary: 'Change your own profile and settings (any subset of the fields)',
    description:
      '`triggers` replaces the whole selection: trainingAmount 0 = trained, 1 = in training. ' +
      'The time zone changes at most once a day: a different `timezone` within a day of the last change is 409 ' +
      'and nothing is saved.',
    body: updateUserRequest,
    responses: { 200: updateUserResponse, 400: errorResponse, 401: errorResponse, 409: errorResponse },
  }),
  grantRole: defineRoute(usersRoutes.grantRole, {
    tags: ['users'],
    summary: 'Give a user a role (administrators only)',
    description:
      '`{ role }`: Verified Creator, Music Creator, Contributor or Moderator; answers the user’s roles. Giving a role the ' +
      'user holds changes nothing. The user’s very next request has the role’s permissions (a new creator can ' +
      'upload at once). 403 for anyone but an Administrator, 404 for an unknown user.',
    params: userRolesParams,
    body: userRoleChange,
    responses: roleChangeResponses,
  }),
  revokeRole: defineRoute(usersRoutes.revokeRole, {
    tags: ['users'],
    summary: 'Take a role from a user (administrators only)',
    description:
      '`?role=`, one of the roles PUT gives; answers the user’s roles. Taking a role the user does not hold changes nothing. ' +
      'The permissions go with the user’s very next request.',
    params: userRolesParams,
    query: userRoleChange,
    responses: roleChangeResponses,
  }),
  uploadAvatar: defineRoute(usersRoutes.uploadAvatar, {
    tags: ['users'],
    summary: 'Upload your profile image',
    description:
      'multipart/form-data with one `file` part: a PNG, JPEG, WebP or GIF (read from the bytes, 400 naming `file` ' +
      `otherwise), at most ${MAX_AVATAR_BYTES} bytes (413). It is re-encoded to 64 and 256 pixel WebP images without ` +
      'metadata (no GPS position or camera data is kept); `url` is the large one, now the user’s imageURL. The ' +
      'previous image is deleted. More than 10 an hour answers 429 with Retry-After.',
    responses: {
      200: avatarUploadResponse,
      400: errorResponse,
      401: errorResponse,
      413: errorResponse,
      429: errorResponse,
    },
  }),
  friends: defineRoute(usersRoutes.friends, {
    tags: ['users'],
    summary: 'Your friends and friend requests',
    responses: { 200: friendsResponse, 401: errorResponse },
  }),
  addFriend: defineRoute(usersRoutes.addFriend, {
    tags: ['users'],
    summary: 'Ask someone to be your friend, or accept their request',
    description:
      'Sends a request, or accepts when `friendId` already asked you; asking again changes nothing. Answers your ' +
      "lists. 400 for yourself, 404 for an unknown user, 403 'You cannot add this user.' when they blocked you. " +
      'More than 30 new requests an hour answers 429 with Retry-After.',
    body: friendChange,
    responses: {
      200: friendsResponse,
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
      404: errorResponse,
      429: errorResponse,
    },
  }),
  removeFriend: defineRoute(usersRoutes.removeFriend, {
    tags: ['users'],
    summary: 'Cancel a request, decline one or end a friendship',
    description: '`?friendId=`: whichever row joins you two goes; none changes nothing. Answers your lists.',
    query: friendRemoval,
    responses: { 200: friendsResponse, 400: errorResponse, 401: errorResponse },
  }),
};
