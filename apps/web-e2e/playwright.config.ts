import { defineConfig } from '@playwright/test';

// Browser tests of the SPA through the gateway. `npm test` (tools/test/run-all.mjs) starts a fresh
// stack of their own and passes BASE_URL (the gateway) and MAIL_URL (the mail catcher's HTTP API:
// GET/DELETE /messages). By hand: `npm start`, then
//   BASE_URL=http://127.0.0.1:3000 MAIL_URL=http://127.0.0.1:1080 npx playwright test -c apps/web-e2e/playwright.config.ts
// The browser is Debian's /usr/bin/chromium: never run `npx playwright install` (it downloads).
const CI = Boolean(process.env.CI);

export default defineConfig({
  testDir: './src',
  testMatch: '**/*.e2e.spec.ts',
  outputDir: '../../.data/e2e/test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: CI,
  // A net for a hang, not a budget: every step waits on a condition. A multi-step test that takes 30 s on
  // an idle 2-core machine took 36 s under load in a fresh-clone run and was cut off at 30.
  timeout: 120_000,
  expect: { timeout: 5_000 },
  reporter: CI ? 'list' : [['list'], ['html', { outputFolder: '../../.data/e2e/playwright-report', open: 'never' }]],
  use: {
    baseURL: process.env.BASE_URL ?? 'http://127.0.0.1:3000',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    video: 'off',
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
  },
  projects: [
    {
      name: 'chromium',
      use: {
        browserName: 'chromium',
        viewport: { width: 1280, height: 800 },
        // Camera and microphone are fake devices granted without a prompt: getUserMedia and
        // MediaRecorder record real webm (assert size, type and the EBML header 1a45dfa3, not a hash).
        permissions: ['camera', 'microphone'],
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--use-fake-device-for-media-stream',
            '--use-fake-ui-for-media-stream',
          ],
        },
      },
    },
  ],
});
