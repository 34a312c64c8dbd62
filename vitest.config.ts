import { defineConfig } from 'vitest/config';

/**
 * One Vitest run for the whole repo (Vitest plays jest's role: jest cannot load NestJS 12, which is
 * ESM-only, on Node 20). Workspace libraries resolve to their TypeScript sources through the
 * `@accredo/source` export condition, so no build is needed before testing.
 *
 * The backend suite runs twice, once per database (spec: SQLite by default, MariaDB at scale):
 * `TEST_DB=sqlite` and `TEST_DB=mariadb` (MariaDB at TEST_MARIADB_URL, default root@127.0.0.1:3306).
 */
const source = { conditions: ['@accredo/source'] };
const ssrSource = { resolve: { conditions: ['@accredo/source', 'node', 'import', 'default'] } };
const backendProject = (db: 'sqlite' | 'mariadb') => ({
  extends: true as const,
  resolve: source,
  ssr: ssrSource,
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  test: {
    name: `backend-${db}`,
    root: 'backend',
    include: ['src/**/*.spec.ts'],
    environment: 'node',
    env: { TEST_DB: db },
    setupFiles: ['src/testing/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: db === 'sqlite',
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        resolve: source,
        ssr: ssrSource,
        test: { name: 'libs', include: ['libs/*/src/**/*.spec.ts', 'scripts/**/*.spec.ts'], environment: 'node' },
      },
      backendProject('sqlite'),
      backendProject('mariadb'),
      {
        // The gate station's core (plain Node): serial readers and relays over socat pseudo-terminals,
        // printing through CUPS's cups-pdf queue (.ci/hardware.sh sets both up).
        resolve: source,
        ssr: ssrSource,
        test: {
          name: 'desktop',
          root: 'desktop',
          include: ['src/**/*.spec.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          root: 'web',
          include: ['src/**/*.spec.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/testing/setup.ts'],
          // whole pages render slowly in jsdom on a busy 2-core machine; findBy waits up to 10 s
          testTimeout: 30_000,
        },
      },
    ],
  },
});
