import { z } from 'zod';
import { MAX_DEVICE_LEVEL } from '../domain/haptic-cues.ts';
import { LOVENSE_NOT_CONFIGURED, lovenseRoutes } from '../routes/lovense.ts';
import { errorResponse, text } from './common.ts';
import { defineRoute, noContent } from './contract.ts';

export { LOVENSE_NOT_CONFIGURED } from '../routes/lovense.ts';

/** The longest a single command may run (s); 0 means until the next command. */
export const MAX_COMMAND_SECONDS = 60;

/**
 * Lovense's rule for a command's `timeSec` (and its loop fields): 0 runs until the next command,
 * anything else must be more than 1 second (Lovense refuses 1 and less).
 */
export const isLovenseDuration = (seconds: number) => seconds === 0 || seconds > 1;

/** The pairing QR code: its image (a data: URL, served by us) and its text code. */
export const lovenseQr = z.object({ qrcodeUrl: z.string(), code: z.string() });
export type LovenseQr = z.infer<typeof lovenseQr>;

/** The spec's Toy. */
export const lovenseToy = z.object({ id: z.string(), name: z.string(), connected: z.boolean() });
export type LovenseToy = z.infer<typeof lovenseToy>;

export const lovenseToys = z.object({
  /** Whether Lovense Remote has reported in (the QR code was scanned) and not been disconnected. */
  connected: z.boolean(),
  toys: z.array(lovenseToy),
});
export type LovenseToys = z.infer<typeof lovenseToys>;

export const lovenseCommandRequest = z.object({
  /** 0 (off) to 20. */
  level: z.number().int().min(0).max(MAX_DEVICE_LEVEL),
  /** How long to keep that level, in seconds; 0 keeps it until the next command (Lovense's range). */
  timeSec: z
    .number()
    .min(0)
    .max(MAX_COMMAND_SECONDS)
    .refine(isLovenseDuration, 'must be 0 (until changed) or more than 1'),
});
export type LovenseCommandRequest = z.infer<typeof lovenseCommandRequest>;

/** Lovense sends ports and statuses as strings or numbers. */
const port = z
  .union([z.number().int(), z.string().regex(/^\d{1,5}$/, 'must be a port number')])
  .transform(Number)
  .pipe(z.number().int().min(0).max(65535));

const optionalText = (max: number) => text(max).optional();

const callbackToy = z.object({
  id: text(100).optional(),
  name: text(100).optional(),
  nickName: text(100).nullish(),
  /** 1 (or true) when the toy is connected to the app. */
  status: z.union([z.number(), z.string().max(10), z.boolean()]).optional(),
});

/**
 * What the Lovense Remote app posts after a QR scan (and again when its toys change):
 * integrations.md. Unknown fields are ignored.
 */
export const lovenseCallback = z.object({
  uid: z.union([z.string().max(20), z.number().int()]).transform(String),
  utoken: text(200).min(1, 'is required'),
  domain: text(253).regex(/^[A-Za-z0-9.-]+$/, 'must be a host name'),
  httpPort: port.optional(),
  httpsPort: port.optional(),
  wsPort: port.optional(),
  wssPort: port.optional(),
  appType: optionalText(50),
  platform: optionalText(50),
  version: optionalText(50),
  appVersion: optionalText(50),
  toys: z
    .record(text(100), callbackToy)
    .refine((toys) => Object.keys(toys).length <= 50, 'must list at most 50 toys')
    .default({}),
});
export type LovenseCallback = z.infer<typeof lovenseCallback>;

const notConfigured = errorResponse.describe(LOVENSE_NOT_CONFIGURED);

export const lovenseApi = {
  qr: defineRoute(lovenseRoutes.qr, {
    tags: ['lovense'],
    summary: 'A QR code to pair the Lovense Remote app with my account',
    description:
      'Asks Lovense for a pairing code bound to the signed-in account and a new secret of ours; the ' +
      'image comes back as a data: URL. Asking again replaces the previous code. 503 without ' +
      'LOVENSE_DEVELOPER_TOKEN; 502 when Lovense does not answer.',
    responses: {
      200: lovenseQr,
      401: errorResponse,
      429: errorResponse,
      502: errorResponse,
      503: notConfigured,
    },
  }),
  callback: defineRoute(lovenseRoutes.callback, {
    tags: ['lovense'],
    summary: 'Lovense Remote reports the connection and the toys (called by Lovense)',
    description:
      'Set this URL as the callback in the Lovense developer dashboard. Trusted only when `uid` and ' +
      '`utoken` match a QR code we asked for (403 otherwise). Replaces the account’s toy list.',
    body: lovenseCallback,
    responses: {
      200: z.object({ ok: z.literal(true) }),
      400: errorResponse,
      403: errorResponse,
      503: notConfigured,
    },
  }),
  toys: defineRoute(lovenseRoutes.toys, {
    tags: ['lovense'],
    summary: 'Whether my Lovense Remote app is connected, and its toys',
    responses: { 200: lovenseToys, 401: errorResponse, 503: notConfigured },
  }),
  command: defineRoute(lovenseRoutes.command, {
    tags: ['lovense'],
    summary: 'Vibrate my toys at a level (0 stops)',
    description:
      'Forwarded to Lovense for the signed-in account. At most 20 commands a second (429 beyond). ' +
      '409 when no Lovense Remote app is connected or it is offline; 502 when Lovense fails.',
    body: lovenseCommandRequest,
    responses: {
      204: noContent,
      400: errorResponse,
      401: errorResponse,
      409: errorResponse,
      429: errorResponse,
      502: errorResponse,
      503: notConfigured,
    },
  }),
  test: defineRoute(lovenseRoutes.test, {
    tags: ['lovense'],
    summary: 'Test my toys: level 10 for 2 seconds',
    responses: {
      204: noContent,
      401: errorResponse,
      409: errorResponse,
      429: errorResponse,
      502: errorResponse,
      503: notConfigured,
    },
  }),
  disconnect: defineRoute(lovenseRoutes.disconnect, {
    tags: ['lovense'],
    summary: 'Forget my Lovense connection, its toys and the pairing secret',
    responses: { 204: noContent, 401: errorResponse, 503: notConfigured },
  }),
};
