import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One place for where the e2e server listens and keeps its data, read by the config and the helpers. */
export const port = Number(process.env.E2E_PORT ?? 3199);
export const dataDir = process.env.E2E_DATA_DIR ?? '/tmp/glimpse-e2e';
export const baseURL = `http://127.0.0.1:${port}`;
/** The e2e server's RTMP ingest for lives (its worker listens there). */
export const rtmpPort = Number(process.env.E2E_RTMP_PORT ?? port + 2);
export const outboxDir = path.join(dataDir, 'outbox');
/** The e2e SMTP server (support/smtp-sink.ts): the server mails through it, with STARTTLS and a login. */
export const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 3198);
export const smtpUser = 'glimpse-e2e';
export const smtpPassword = 'e2e-mail-secret';
export const smtpUrl = `smtp://${smtpUser}:${smtpPassword}@127.0.0.1:${smtpPort}?requireTLS=true&tls.rejectUnauthorized=false`;

const e2eDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const artifactsDir = path.join(e2eDir, 'artifacts');
