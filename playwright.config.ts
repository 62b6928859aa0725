import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3199);
/** The tests drive the simulated phone with this token (the server gets it as SIM_TOKEN). */
export const E2E_SIM_TOKEN = 'e2e-simulator-token-0123456789';

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
    extraHTTPHeaders: { 'X-Sim-Token': E2E_SIM_TOKEN },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
  webServer: {
    // The compiled server (npm run test:e2e builds everything once; the server alone is rebuilt here when
    // its sources changed, so a run after a bare `vite build` still starts).
    command: `rm -rf data-e2e-${PORT} && node scripts/build.mjs --if-stale server && DATA_DIR=data-e2e-${PORT} PORT=${PORT} DEMO=true SIM_LATENCY_MS=50 SIM_FAILURE_RATE=0 SIM_TOKEN=${E2E_SIM_TOKEN} SIGNUP_LIMIT=1000 node --enable-source-maps dist/server/main.js`,
    url: `http://localhost:${PORT}/api/config`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
