import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Browser journeys against the built product, served by the backend on its embedded defaults
 * (SQLite, .eml outbox) in a throwaway data folder. Debian's Chromium, never a downloaded browser.
 */
export const PORT = Number(process.env.E2E_PORT ?? 8091);
// Each port gets its own throwaway data folder, so two runs side by side never share one.
export const DATA_DIR = path.join(import.meta.dirname, process.env.E2E_PORT ? `.data-${PORT}` : '.data');
export const OPERATOR = { email: 'operator@e2e.test', password: 'operator-e2e-pass' };

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [
    ['list'],
    [
      'json',
      {
        outputFile:
          process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? path.join(DATA_DIR, '..', 'test-results', 'results.json'),
      },
    ],
  ],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `rm -rf "${DATA_DIR}" && node ../backend/dist/main.js`,
    cwd: import.meta.dirname,
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      OPERATOR_EMAIL: OPERATOR.email,
      OPERATOR_PASSWORD: OPERATOR.password,
      PASSWORD_HASH_COST: '12',
      LOG_LEVEL: 'warn',
    },
  },
});
