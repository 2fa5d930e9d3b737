import { defineConfig } from '@playwright/test';
import { baseURL, dataDir, port, rtmpPort, smtpPort, smtpUrl } from './support/env.ts';

/** Runs against the real server (built web app, PGlite, local storage) in Debian's Chromium. */
export default defineConfig({
  testDir: '.',
  outputDir: './artifacts/results',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      // Every mail of the suite goes through a real SMTP server (STARTTLS, AUTH) into the outbox folder.
      command: 'npx tsx e2e/support/smtp-sink.ts',
      cwd: '..',
      port: smtpPort,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
    {
      command: `rm -rf ${dataDir} && npm run start --workspace @glimpse/server`,
      cwd: '..',
      url: `${baseURL}/api/v1/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PUBLIC_URL: baseURL,
        RATE_LIMITS_ENABLED: 'false',
        LOG_LEVEL: 'warn',
        // support/api.ts adminUser(): the staff account of the moderation specs.
        ADMIN_EMAIL: 'admin@e2e.test',
        SMTP_URL: smtpUrl,
        LIVE_RTMP_PORT: String(rtmpPort),
        LIVE_RTMP_HOST: '127.0.0.1',
      },
    },
  ],
});
