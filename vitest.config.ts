import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/api/**/*.test.ts', 'tests/unit/**/*.test.{ts,tsx}', 'server/src/**/*.test.ts', 'client/src/**/*.test.{ts,tsx}'],
    environment: 'node',
    setupFiles: ['client/src/test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // On CI a test that fails once is run again, as Playwright does; a real fault fails twice.
    retry: process.env.CI ? 1 : 0,
  },
});
