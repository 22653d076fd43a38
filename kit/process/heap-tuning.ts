import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings every process of the service runs with, set before anything else is loaded
 * (docs/performance.md#the-heap-settings). Each entry point imports this module first.
 *
 * Allocation-site pretenuring is off. V8 allocates straight into the old generation the objects of any
 * literal whose objects once mostly outlived a young-generation collection. Node's own EventEmitter
 * makes its listener table (`_events`) at one such literal: the process's start makes hundreds of
 * long-lived emitters, so the literal is tenured for good. Then every request's emitters (its socket
 * streams, messages, statements) put their tables in the old generation, and those tables hold the
 * request's young objects there too. Under the organization list's load that promoted 1.4-2.7 KB a
 * request, and a full collection of the ~135 MB heap came every 5,000-20,000 requests; with it off,
 * 0.16 KB and one in ~50,000. `NODE_OPTIONS` refuses this flag: it is set here, not on a command line.
 */
setFlagsFromString('--no-allocation-site-pretenuring');
