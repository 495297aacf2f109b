import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Separate processes: some suites map gigabytes of wasm memory or start servers.
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
