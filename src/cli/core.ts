/**
 * The entry of the compiled core: the whole CLI but the terminal UI as one CommonJS file
 * (dist/bin/core.cjs, built by scripts/bundle.ts), which bin.ts runs for `-p` through a V8 code
 * cache (compiled-core.ts).
 */
export { runCli } from './main.js';
