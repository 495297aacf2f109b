import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The suites of test/slow/ first. Vitest starts the longest files first
 * when it has the timings of an earlier run; a fresh clone, such as CI's,
 * has none, and vitest then starts the largest files first, which puts
 * these short files that each take most of a minute last, with one worker
 * finishing them alone while the other waits.
 */
class SlowSuitesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = (file: TestSpecification) => file.moduleId.includes('/test/slow/');
    return [...sorted.filter(slow), ...sorted.filter((file) => !slow(file))];
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    sequence: { sequencer: SlowSuitesFirst },
    setupFiles: ['test/helpers/typed-array-equality.ts'],
    // Separate processes: some suites map gigabytes of wasm memory or start servers.
    pool: 'forks',
    // Both cores: vitest's default leaves one idle on a 2-core machine like CI's,
    // and most suites wait on child processes, servers and browsers.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
