import { defineConfig } from '@playwright/test';

/** The several-node test: it starts its own server processes on PostgreSQL and Redis (scripts/test-cluster.mjs). */
export default defineConfig({
  testDir: 'tests/cluster',
  timeout: 240_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
