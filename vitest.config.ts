import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Two tiers (`npm run test:fast`, `npm run test:slow`); `npm test` runs both. The fast tier is the inner loop:
// the contract, the types, every operation through real HTTP, the client and security. The slow tier holds what
// spawns processes or drives a browser: fuzzing, the docs and the console in Chromium, the packed client, crash and scale-out
// reliability, conformance through Prism and a second generator, and the Prism mocks (both modes). The fast tier runs three
// files at a time (package.json): they wait on HTTP and the store more than they compute.
// Besides whole folders, two server suites that start processes: the admin CLI and `npm start` itself.
const slow = [
  'test/server/admin-cli.test.ts',
  'test/server/startup.test.ts',
  'test/fuzz/**/*.test.ts',
  'test/docs/**/*.test.ts',
  'test/console/**/*.test.ts',
  'test/client/package.test.ts',
  'test/reliability/**/*.test.ts',
  'test/conformance/**/*.test.ts',
  'test/mock/**/*.test.ts',
];

// Timeouts are a last resort against a hung test, never a measure of speed (that is `npm run bench`): generous for a
// loaded 2-core machine, where the slow tier's compiles and process starts take two to three times an idle one's.
const common = { testTimeout: 60_000, hookTimeout: 120_000 };
const slowTier = { testTimeout: 180_000, hookTimeout: 300_000 };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...common,
          name: 'fast',
          // Files of a worker share loaded modules (each starts its own service and store): importing the server
          // stack anew for each of 45 files cost a third of the tier's time. They share the request and response
          // validators too (server/http/mount-group.ts), whose compiling was most of a fresh service's first requests.
          isolate: false,
          // Migrated databases each suite's service copies (test/support/stores.ts), made once per run.
          globalSetup: ['test/support/store-templates.ts'],
          // Console passwords hashed at a test cost (the slow tier keeps the deployment's).
          setupFiles: ['test/support/password-cost.ts'],
          include: ['test/**/*.test.ts'],
          exclude: slow,
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.types.json' },
        },
      },
      {
        // The reference's TypeScript samples import the client by its package name, as a reader's program does.
        resolve: { alias: { '@payout-service/client': fileURLToPath(new URL('./client/index.ts', import.meta.url)) } },
        test: { ...slowTier, name: 'slow', include: slow },
      },
    ],
  },
});
