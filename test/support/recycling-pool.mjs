// The pool of test workers, with a memory limit (docs/testing.md#what-a-file-must-leave-behind-nothing).
// A worker keeps every test file it has run in Node's module cache, and with it what the file's top-level
// variables still hold (a closed stack: about 40 MB each), so a worker that runs a hundred files would pass
// V8's heap limit. jest-light-runner gives its pool no limit; test/support/module-hooks.mjs hands it this
// pool, which replaces a worker once its heap is past TEST_WORKER_HEAP_MB (1,536 by default) after a file,
// as Jest's own `workerIdleMemoryLimit` does. The replacement loads the modules again (a few seconds).
import Tinypool from 'tinypool';

const HEAP_LIMIT_BYTES = Number(process.env.TEST_WORKER_HEAP_MB || 1536) * 1024 * 1024;

export default class RecyclingPool extends Tinypool {
  constructor(options) {
    super({ ...options, maxMemoryLimitBeforeRecycle: HEAP_LIMIT_BYTES });
  }
}
