import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Separate processes: some suites map gigabytes of wasm memory or start servers.
    pool: 'forks',
    // Both cores: vitest's default leaves one idle on a 2-core machine like CI's,
    // and most suites wait on child processes, servers and browsers.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
