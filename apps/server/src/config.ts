import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_LADDER, X264_PRESETS, type LadderSettings } from '@glimpse/media';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (def: number) => z.coerce.number().int().min(0).default(def);
const intList = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'a comma-separated list of whole numbers')
  .transform((v) => v.split(',').map(Number));

/** The x264 presets an operator may name; placebo is left out (many times veryslow's CPU for no visible gain). */
const LADDER_PRESETS = X264_PRESETS.filter((p) => p !== 'placebo') as [string, ...string[]];

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.url().optional(),
  SMTP_URL: z.url().optional(),
  // An address alone is sent under the instance's name; "Name <address>" keeps its own.
  MAIL_FROM: z.string().default('no-reply@glimpse.local'),
  PUBLIC_URL: z.url().optional(),
  JWT_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL: int(15 * 60),
  REFRESH_TOKEN_TTL: int(30 * 24 * 3600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Rate limits (requests per window per IP, or per account where lib/rate-limit.ts says); 0 switches that limit off. */
  RATE_LIMIT_WINDOW_SECONDS: int(15 * 60),
  RATE_LIMIT_LOGIN: int(20),
  RATE_LIMIT_REGISTER: int(10),
  RATE_LIMIT_FORGOT_PASSWORD: int(5),
  RATE_LIMIT_VERIFICATION_RESEND: int(5),
  /** Wrong current passwords per account per window on PATCH users/password. */
  RATE_LIMIT_PASSWORD_CHANGE: int(10),
  RATE_LIMIT_UPLOAD: int(2000),
  RATE_LIMIT_REPORT: int(30),
  /** Comments (live chat included) per window per account. */
  RATE_LIMIT_COMMENT: int(300),
  /** Analytics heartbeats per IP per window (a player sends one every 5 s; households share an IP). */
  RATE_LIMIT_HEARTBEAT: int(3000),
  RATE_LIMITS_ENABLED: bool.default(true),
  /** Where counters live: `database` shares them between processes on one PostgreSQL; `auto` = database on a PostgreSQL server, memory on PGlite. */
  RATE_LIMIT_STORE: z.enum(['auto', 'memory', 'database']).default('auto'),
  /** Trust X-Forwarded-* from: `false` (default: clients cannot pick their IP), `true` (any peer), or comma-separated proxy addresses/CIDRs. */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .transform((v): boolean | string[] => (v === 'true' ? true : v === 'false' ? false : v.split(',').map((a) => a.trim()).filter(Boolean))),
  /** Size limits in MB. */
  MAX_VIDEO_MB: int(2048),
  MAX_THUMBNAIL_MB: int(1),
  MAX_IMAGE_MB: int(15),
  UPLOAD_SESSION_TTL_HOURS: int(24),
  /** Per account: unfinished chunked uploads at once, and the MB their chunks may hold together (default twice MAX_VIDEO_MB). */
  MAX_OPEN_UPLOADS: z.coerce.number().int().min(1).default(10),
  MAX_UPLOADS_HELD_MB: z.coerce.number().int().min(1).optional(),
  /** How long a signed link to media that is not public (the owner's previews) stays valid. */
  MEDIA_URL_TTL_SECONDS: z.coerce.number().int().min(60).default(6 * 3600),
  /** Behind nginx: the internal location serving DATA_DIR/media; media answers then hand the file to nginx (X-Accel-Redirect). */
  MEDIA_ACCEL_REDIRECT: z
    .string()
    .regex(/^\/[\w/-]*\/$/, 'a path such as /_media_files/')
    .optional(),
  WORKER_ENABLED: bool.default(true),
  WORKER_CONCURRENCY: int(1),
  /** The worker's RTMP ingest for lives (ADR 024): port (0 = no ingest on this worker) and address. */
  LIVE_RTMP_PORT: z.coerce.number().int().min(0).max(65535).default(1935),
  LIVE_RTMP_HOST: z.string().default('0.0.0.0'),
  /** Behind the nginx `stream` front with `proxy_protocol on`: read the encoder's address from it (ADR 024). */
  LIVE_RTMP_PROXY_PROTOCOL: bool.default(false),
  /** The RTMP URL creators paste into OBS (rtmps:// through the nginx front); default rtmp://<PUBLIC_URL host>:<port>/live. */
  LIVE_RTMP_URL: z.string().regex(/^rtmps?:\/\/[^\s]+$/, 'an rtmp:// or rtmps:// URL').optional(),
  /** `bundled` (FFmpeg inside the node-av npm package), `system` (FFMPEG_PATH or the PATH), `auto` = system when FFMPEG_PATH is set. */
  MEDIA_ENGINE: z.enum(['auto', 'bundled', 'system']).default('auto'),
  FFMPEG_PATH: z.string().optional(),
  FFPROBE_PATH: z.string().optional(),
  /** Longest video accepted, refused at the last chunk. */
  MAX_VIDEO_MINUTES: int(360),
  /** A transcode with no progress for this long is stopped and the video fails with that reason. */
  TRANSCODE_STALL_SECONDS: int(120),
  /** Wall-time limit of a transcode: 5 minutes plus this many seconds per second of video. */
  TRANSCODE_TIME_FACTOR: int(10),
  /** The HLS ladder (defaults in DEFAULT_LADDER of @glimpse/media). */
  LADDER_HEIGHTS: intList.optional(),
  LADDER_MAX_KBPS: intList.optional(),
  /** One value for every rung, or one per height. */
  LADDER_CRF: intList.optional(),
  LADDER_PRESET: z
    .string()
    .refine((v) => v.split(',').every((p) => LADDER_PRESETS.includes(p)), 'x264 presets, comma-separated')
    .transform((v) => v.split(','))
    .optional(),
  /** The x264 preset of the first pass, which makes the lowest rung alone (ADR 019). */
  LADDER_FIRST_PRESET: z.enum(LADDER_PRESETS).optional(),
  /** Probe each video for a CRF one step above the rung's where it costs little quality (ADR 025). */
  LADDER_CRF_PROBE: bool.optional(),
  LADDER_FPS_CAP: z.coerce.number().int().min(1).max(120).optional(),
  LADDER_MAX_FPS: z.coerce.number().int().min(1).max(120).optional(),
  HLS_SEGMENT_SECONDS: z.coerce.number().int().min(1).max(20).optional(),
  AUDIO_KBPS: z.coerce.number().int().min(32).max(512).optional(),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(true),
  S3_PUBLIC_URL: z.url().optional(),
  WEB_DIST: z.string().optional(),
  /** Seed the demo content on the first start of an empty instance (as `npm start -- --demo`). */
  DEMO: bool.default(false),
  /** The account with this email becomes an admin once it exists and its email is verified. */
  ADMIN_EMAIL: z.email().transform((e) => e.toLowerCase()).optional(),
  /** Days raw analytics rows (heartbeats, subscription changes) are kept once rolled up. */
  ANALYTICS_RAW_DAYS: z.coerce.number().int().min(1).default(30),
  /** Heartbeats written in one INSERT (at the latest every 200 ms); 1 writes each before its answer. */
  ANALYTICS_BATCH_ROWS: z.coerce.number().int().min(1).max(5000).default(500),
  /** How long a heartbeat may use what it read about a video (its visibility included); 0 reads it every time. */
  ANALYTICS_VIDEO_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** ActivityPub (ADR 023): off answers no WebFinger, actor or inbox request and delivers nothing. */
  FEDERATION_ENABLED: bool.default(true),
  /** Test only: lets remote fetches and deliveries reach loopback/private addresses (refused in production). */
  FEDERATION_ALLOW_PRIVATE_ADDRESSES: bool.default(false),
  /** Deliveries in flight to one host from one worker; more wait in the queue. */
  FEDERATION_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Incoming activities accepted per remote host per minute. */
  FEDERATION_INBOX_PER_MINUTE: z.coerce.number().int().min(1).default(600),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  publicUrl: string;
  jwtSecret: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  logLevel: Env['LOG_LEVEL'];
  rateLimits: {
    enabled: boolean;
    windowSeconds: number;
    login: number;
    register: number;
    forgotPassword: number;
    verificationResend: number;
    passwordChange: number;
    upload: number;
    report: number;
    comment: number;
    heartbeat: number;
  };
  rateLimitStore: Env['RATE_LIMIT_STORE'];
  /** Fastify's trustProxy: who may tell us the client's address and protocol. */
  trustProxy: boolean | string[];
  limits: { videoMb: number; thumbnailMb: number; imageMb: number; openUploads: number; uploadsHeldMb: number };
  uploadSessionTtlHours: number;
  mediaUrlTtlSeconds: number;
  mediaAccelRedirect?: string;
  worker: { enabled: boolean; concurrency: number };
  live: { rtmpPort: number; rtmpHost: string; rtmpUrl?: string; proxyProtocol: boolean };
  media: {
    engine: Env['MEDIA_ENGINE'];
    ffmpegPath?: string;
    ffprobePath?: string;
    maxDurationSeconds: number;
    stallSeconds: number;
    timeFactor: number;
    ladder: LadderSettings;
  };
  s3?: {
    bucket: string;
    endpoint?: string;
    region: string;
    accessKeyId?: string;
    secretAccessKey?: string;
    forcePathStyle: boolean;
    publicUrl?: string;
  };
  webDist: string;
  demo: boolean;
  adminEmail?: string;
  analytics: { rawDays: number; batchRows: number; videoCacheMs: number };
  federation: { enabled: boolean; allowPrivateAddresses: boolean; hostConcurrency: number; inboxPerMinute: number };
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads a secret kept in DATA_DIR, creating it on first start so restarts keep sessions valid. */
function persistedSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The ladder from DEFAULT_LADDER with the operator's LADDER_* / HLS_* / AUDIO_* values over it. */
function ladderSettings(e: Env): LadderSettings {
  const d = DEFAULT_LADDER;
  const heights = e.LADDER_HEIGHTS ?? d.rungs.map((r) => r.height);
  // A height the defaults do not know borrows the nearest default rung's settings.
  const nearest = (h: number) => [...d.rungs].sort((a, b) => Math.abs(a.height - h) - Math.abs(b.height - h))[0]!;
  const perRung = <T>(name: string, given: T[] | undefined, fallback: (h: number) => T): T[] => {
    if (!given) return heights.map(fallback);
    if (given.length === 1) return heights.map(() => given[0]!);
    if (given.length !== heights.length) throw new ConfigError([`${name}: give one value, or one per height in LADDER_HEIGHTS`]);
    return given;
  };
  const caps = perRung('LADDER_MAX_KBPS', e.LADDER_MAX_KBPS, (h) => d.rungs.find((r) => r.height === h)?.maxKbps ?? Math.round((h * h) / 230));
  const crfs = perRung('LADDER_CRF', e.LADDER_CRF, (h) => nearest(h).crf);
  const presets = perRung('LADDER_PRESET', e.LADDER_PRESET, (h) => nearest(h).preset);
  return {
    rungs: heights.map((height, i) => ({ height, maxKbps: caps[i]!, crf: crfs[i]!, preset: presets[i]! })),
    fpsCap: e.LADDER_FPS_CAP ?? d.fpsCap,
    highFpsFrom: d.highFpsFrom,
    maxFps: e.LADDER_MAX_FPS ?? d.maxFps,
    segmentSeconds: e.HLS_SEGMENT_SECONDS ?? d.segmentSeconds,
    audioKbps: e.AUDIO_KBPS ?? d.audioKbps,
    firstPassPreset: e.LADDER_FIRST_PRESET ?? d.firstPassPreset,
    crfProbe: e.LADDER_CRF_PROBE ?? d.crfProbe,
  };
}

/** Parses the environment once at boot; every bad key is listed in the thrown error. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const raw = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  if (e.FEDERATION_ALLOW_PRIVATE_ADDRESSES && e.NODE_ENV === 'production')
    throw new ConfigError(['FEDERATION_ALLOW_PRIVATE_ADDRESSES: only for tests, never in production (it opens remote fetches to the local network)']);
  const dataDir = path.resolve(e.DATA_DIR);
  const config: Config = {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    jwtSecret: e.JWT_SECRET ?? overrides.jwtSecret ?? persistedSecret(dataDir, 'jwt-secret'),
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    logLevel: e.LOG_LEVEL,
    rateLimits: {
      enabled: e.RATE_LIMITS_ENABLED,
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
      login: e.RATE_LIMIT_LOGIN,
      register: e.RATE_LIMIT_REGISTER,
      forgotPassword: e.RATE_LIMIT_FORGOT_PASSWORD,
      verificationResend: e.RATE_LIMIT_VERIFICATION_RESEND,
      passwordChange: e.RATE_LIMIT_PASSWORD_CHANGE,
      upload: e.RATE_LIMIT_UPLOAD,
      report: e.RATE_LIMIT_REPORT,
      comment: e.RATE_LIMIT_COMMENT,
      heartbeat: e.RATE_LIMIT_HEARTBEAT,
    },
    rateLimitStore: e.RATE_LIMIT_STORE,
    trustProxy: e.TRUST_PROXY,
    limits: {
      videoMb: e.MAX_VIDEO_MB,
      thumbnailMb: e.MAX_THUMBNAIL_MB,
      imageMb: e.MAX_IMAGE_MB,
      openUploads: e.MAX_OPEN_UPLOADS,
      uploadsHeldMb: e.MAX_UPLOADS_HELD_MB ?? 2 * e.MAX_VIDEO_MB,
    },
    uploadSessionTtlHours: e.UPLOAD_SESSION_TTL_HOURS,
    mediaUrlTtlSeconds: e.MEDIA_URL_TTL_SECONDS,
    mediaAccelRedirect: e.MEDIA_ACCEL_REDIRECT,
    worker: { enabled: e.WORKER_ENABLED, concurrency: Math.max(1, e.WORKER_CONCURRENCY) },
    live: { rtmpPort: e.LIVE_RTMP_PORT, rtmpHost: e.LIVE_RTMP_HOST, rtmpUrl: e.LIVE_RTMP_URL, proxyProtocol: e.LIVE_RTMP_PROXY_PROTOCOL },
    media: {
      engine: e.MEDIA_ENGINE,
      ffmpegPath: e.FFMPEG_PATH,
      ffprobePath: e.FFPROBE_PATH,
      maxDurationSeconds: e.MAX_VIDEO_MINUTES * 60,
      stallSeconds: e.TRANSCODE_STALL_SECONDS,
      timeFactor: e.TRANSCODE_TIME_FACTOR,
      ladder: ladderSettings(e),
    },
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          publicUrl: e.S3_PUBLIC_URL,
        }
      : undefined,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    demo: e.DEMO,
    adminEmail: e.ADMIN_EMAIL,
    analytics: { rawDays: e.ANALYTICS_RAW_DAYS, batchRows: e.ANALYTICS_BATCH_ROWS, videoCacheMs: e.ANALYTICS_VIDEO_CACHE_MS },
    federation: {
      enabled: e.FEDERATION_ENABLED,
      allowPrivateAddresses: e.FEDERATION_ALLOW_PRIVATE_ADDRESSES,
      hostConcurrency: e.FEDERATION_HOST_CONCURRENCY,
      inboxPerMinute: e.FEDERATION_INBOX_PER_MINUTE,
    },
  };
  return { ...config, ...overrides };
}
