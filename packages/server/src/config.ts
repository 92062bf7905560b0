import { isIP } from 'node:net';
import path from 'node:path';
import { AD_FREE_TIER_IDS } from '@mesmer/shared/domain/ads';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const optionalUrl = z.url().optional();

/** A proxy-addr name for a whole range, or an IPv4/IPv6 address with an optional /prefix. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const kind = isIP(address);
  if (kind === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (kind === 4 ? 32 : 128);
}

/** TRUST_PROXY: a hop count, or the proxies' addresses; never "trust every X-Forwarded-For". */
const trustProxy = z
  .string()
  .transform((value, ctx): number | string[] => {
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((e) => e.trim());
    const bad = entries.find((e) => !isProxyAddress(e));
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `"${bad}" is not a hop count, an IP address or CIDR range, loopback, linklocal or uniquelocal`,
      });
      return z.NEVER;
    }
    return entries;
  })
  .optional();

/** Every setting the server reads. Only this file touches process.env. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: optionalUrl,
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Mesmer <no-reply@mesmer.local>'),
  SESSION_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  SITE_NAME: z.string().min(1).default('Mesmer'),
  WIKI_URL: z.url().default('https://wiki.mesmer.local'),
  CONTACT_EMAIL: z.email().default('support@mesmer.local'),
  DISCORD_INSTALL_URL: z.url().default('https://discord.com/oauth2/authorize'),
  AD_NETWORK_SCRIPT_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  AD_ZONE_DESKTOP: z.string().max(100).optional(),
  AD_ZONE_MOBILE: z.string().max(100).optional(),
  AD_FREE_TIER_IDS: z
    .string()
    .regex(/^\s*\d+\s*(,\s*\d+\s*)*$/, 'must be a comma-separated list of Patreon tier ids')
    .optional(),
  ANALYTICS_SCRIPT_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  ANALYTICS_SITE_ID: z.string().max(100).optional(),
  PATREON_CLIENT_ID: z.string().min(1).max(200).optional(),
  PATREON_CLIENT_SECRET: z.string().min(1).max(200).optional(),
  PATREON_WEBHOOK_SECRET: z.string().min(8, 'must be at least 8 characters').max(200).optional(),
  PATREON_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .default('https://www.patreon.com'),
  PATREON_REDIRECT_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  SEED_DEMO: z.enum(['true', 'false', '1', '0', 'force']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  COOKIE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  SESSION_IDLE_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  CLUSTER_PROCESSES: z.coerce.number().int().min(1).max(64).default(2),
  RATE_LIMIT: bool.default(true),
  TRUST_PROXY: trustProxy,
  LIBRARY_CACHE_SECONDS: z.coerce.number().min(0).max(300).default(5),
  WEB_DIST: z.string().min(1).optional(),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be a bucket name: 3 to 63 lowercase letters, digits, dots and dashes',
    )
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1')
    .default('us-east-1'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  LOVENSE_DEVELOPER_TOKEN: z
    .string()
    .max(200)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  LOVENSE_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .default('https://api.lovense-api.com'),
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces (it is sent in an Authorization header)')
    .optional(),
});

export type Env = z.infer<typeof envSchema>;
/** The names of all settings: the README table and .env.example list exactly these. */
export const SETTING_NAMES = Object.keys(envSchema.shape);

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  databaseUrl?: string;
  redisUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  /** Key for signed media URLs; derived from a file under DATA_DIR when not given. */
  sessionSecret?: string;
  siteName: string;
  wikiUrl: string;
  contactEmail: string;
  discordInstallUrl: string;
  /** The ad network's script and zone ids (AD_NETWORK_SCRIPT_URL); no ads when unset. */
  ads?: { scriptUrl: string; desktopZone?: string; mobileZone?: string };
  /** Patreon tiers whose active members see no ads. */
  adFreeTierIds: string[];
  /** The analytics script (ANALYTICS_SCRIPT_URL); no analytics when unset. */
  analytics?: { scriptUrl: string; siteId?: string };
  /** Patreon linking (PATREON_CLIENT_ID and PATREON_CLIENT_SECRET); the Patreon calls answer 503 when unset. */
  patreon?: PatreonConfig;
  /** Seed the demo library (accounts with a published password); never in production unless SEED_DEMO=force. */
  seedDemo: boolean;
  logLevel: Env['LOG_LEVEL'];
  cookieDays: number;
  /** A session unused for this many days ends (before its COOKIE_DAYS end). */
  sessionIdleDays: number;
  /** How many server processes `npm run start:cluster` runs behind its proxy. */
  clusterProcesses: number;
  rateLimit: boolean;
  /** Which proxies' X-Forwarded-For to believe: a hop count or their addresses; false believes none. */
  trustProxy: false | number | string[];
  /** How long answers of the library's read calls are kept (platform/read-cache.ts); 0 turns it off. */
  libraryCacheSeconds: number;
  /** Path of the built web app; served for every non-API path when present. */
  webDist?: string;
  /** Media in an S3-compatible bucket instead of DATA_DIR/media (set by S3_BUCKET). */
  s3?: S3Config;
  /** Lovense's Standard API (LOVENSE_DEVELOPER_TOKEN); the Lovense calls answer 503 when unset. */
  lovense?: { developerToken: string; apiUrl: string };
  /**
   * Bearer token /metrics asks for (METRICS_TOKEN). Without one, /metrics is open outside
   * production and absent in production.
   */
  metricsToken?: string;
}

export interface PatreonConfig {
  clientId: string;
  clientSecret: string;
  /** Key of the webhooks' X-Patreon-Signature; webhooks are refused (503) without one. */
  webhookSecret?: string;
  /** Patreon's base URL, for both the www (authorize) and the API paths; tests point it at a fake. */
  baseUrl: string;
  /** Where Patreon sends the browser back: PATREON_REDIRECT_URL, else PUBLIC_URL/patreon/oauth. */
  redirectUrl: string;
}

export interface S3Config {
  bucket: string;
  region: string;
  /** Another S3-compatible service; unset is AWS. */
  endpoint?: string;
  /** Both or neither; neither uses the SDK's usual credential sources (AWS_* variables, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bucket in the path (endpoint/bucket/key) rather than in the host name. */
  forcePathStyle: boolean;
}

export class ConfigError extends Error {}

/** Reads and validates the environment; lists every bad variable at once. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(
    Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const s3Problems = checkS3(e);
  if (s3Problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${s3Problems.map((p) => `  ${p}`).join('\n')}`);
  }
  const patreonProblems = checkPatreon(e);
  if (patreonProblems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${patreonProblems.map((p) => `  ${p}`).join('\n')}`);
  }
  if (e.NODE_ENV === 'production' && (e.SEED_DEMO === 'true' || e.SEED_DEMO === '1')) {
    throw new ConfigError(
      'Invalid configuration:\n  SEED_DEMO: the demo accounts have a published password; ' +
        'in production use SEED_DEMO=force to seed them anyway, or leave it unset',
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    publicUrl,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    sessionSecret: e.SESSION_SECRET,
    siteName: e.SITE_NAME,
    wikiUrl: e.WIKI_URL,
    contactEmail: e.CONTACT_EMAIL,
    discordInstallUrl: e.DISCORD_INSTALL_URL,
    ads: e.AD_NETWORK_SCRIPT_URL
      ? { scriptUrl: e.AD_NETWORK_SCRIPT_URL, desktopZone: e.AD_ZONE_DESKTOP, mobileZone: e.AD_ZONE_MOBILE }
      : undefined,
    adFreeTierIds: e.AD_FREE_TIER_IDS
      ? e.AD_FREE_TIER_IDS.split(',').map((id) => id.trim())
      : [...AD_FREE_TIER_IDS],
    analytics: e.ANALYTICS_SCRIPT_URL
      ? { scriptUrl: e.ANALYTICS_SCRIPT_URL, siteId: e.ANALYTICS_SITE_ID }
      : undefined,
    patreon:
      e.PATREON_CLIENT_ID && e.PATREON_CLIENT_SECRET
        ? {
            clientId: e.PATREON_CLIENT_ID,
            clientSecret: e.PATREON_CLIENT_SECRET,
            webhookSecret: e.PATREON_WEBHOOK_SECRET,
            baseUrl: e.PATREON_URL.replace(/\/$/, ''),
            redirectUrl: e.PATREON_REDIRECT_URL ?? `${publicUrl}/patreon/oauth`,
          }
        : undefined,
    seedDemo:
      e.SEED_DEMO === undefined
        ? e.NODE_ENV !== 'production'
        : e.SEED_DEMO !== 'false' && e.SEED_DEMO !== '0',
    logLevel: e.LOG_LEVEL,
    cookieDays: e.COOKIE_DAYS,
    sessionIdleDays: e.SESSION_IDLE_DAYS,
    clusterProcesses: e.CLUSTER_PROCESSES,
    rateLimit: e.RATE_LIMIT,
    trustProxy: e.TRUST_PROXY ?? false,
    libraryCacheSeconds: e.LIBRARY_CACHE_SECONDS,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : undefined,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          endpoint: e.S3_ENDPOINT,
          credentials:
            e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
              : undefined,
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
        }
      : undefined,
    lovense: e.LOVENSE_DEVELOPER_TOKEN
      ? { developerToken: e.LOVENSE_DEVELOPER_TOKEN, apiUrl: e.LOVENSE_API_URL.replace(/\/$/, '') }
      : undefined,
    metricsToken: e.METRICS_TOKEN,
  };
}

/** The Patreon settings that only make sense together. */
function checkPatreon(e: Env): string[] {
  const problems: string[] = [];
  if (e.PATREON_CLIENT_ID && !e.PATREON_CLIENT_SECRET) {
    problems.push('PATREON_CLIENT_SECRET: is required with PATREON_CLIENT_ID');
  }
  if (e.PATREON_CLIENT_SECRET && !e.PATREON_CLIENT_ID) {
    problems.push('PATREON_CLIENT_ID: is required with PATREON_CLIENT_SECRET');
  }
  if (e.PATREON_WEBHOOK_SECRET && !e.PATREON_CLIENT_ID) {
    problems.push('PATREON_CLIENT_ID: is required with PATREON_WEBHOOK_SECRET');
  }
  return problems;
}

/** The S3 settings that only make sense together. */
function checkS3(e: Env): string[] {
  const problems: string[] = [];
  if (!e.S3_BUCKET) {
    const given = (
      ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const
    ).filter((name) => e[name] !== undefined);
    if (given.length > 0) problems.push(`S3_BUCKET: is required with ${given.join(', ')}`);
  }
  if (e.S3_ACCESS_KEY_ID && !e.S3_SECRET_ACCESS_KEY) {
    problems.push('S3_SECRET_ACCESS_KEY: is required with S3_ACCESS_KEY_ID');
  }
  if (e.S3_SECRET_ACCESS_KEY && !e.S3_ACCESS_KEY_ID) {
    problems.push('S3_ACCESS_KEY_ID: is required with S3_SECRET_ACCESS_KEY');
  }
  return problems;
}
