import { setFlagsFromString } from 'node:v8';

/**
 * Imported first by the CLI entry, before anything compiles WebAssembly. fetch's HTTP parser
 * (undici's llhttp) is a WebAssembly module, and V8's optimising compile of it made a one-answer
 * task peak at ~88 MB RSS instead of ~60 MB. Baseline (Liftoff) code parses a few kB of SSE per
 * answer just as well; measured in bench/README.md (row 7, peak RSS).
 */
setFlagsFromString('--liftoff-only');
