// Runs the longest test files first, also on a clone that has never run the suite (docs/performance.md#the-test-suites-budget).
// Jest orders files by their last durations in its cache; a fresh clone (a newcomer, CI) has none, so Jest
// falls back to file size, and a small file that takes minutes (a race of 10,000 renewals, a browser) can
// start last and hold the run open while the other worker idles. The durations of a whole run, recorded by
// the budget reporter (TEST_DURATIONS_FILE), stand in for the cache's. Plain ESM: Jest loads it as is.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Sequencer from '@jest/test-sequencer';

const RECORDED = path.join(import.meta.dirname, 'test-durations.json');

export default class LongestFirst extends Sequencer {
  constructor(options) {
    super(options);
    try {
      this.recorded = JSON.parse(readFileSync(RECORDED, 'utf8'));
    } catch {
      this.recorded = {};
    }
  }

  /** The cache's duration of the file, or the recorded one; a file in neither runs first (Jest's rule). */
  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const seconds = this.recorded[path.relative(test.context.config.rootDir, test.path)];
    return seconds == null ? undefined : seconds * 1000;
  }
}
