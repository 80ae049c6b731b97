/**
 * The one switch for the start-up machinery in this folder. By default a `-p` run starts from the
 * compiled core through V8's code cache (compiled-core.ts) and the Anthropic SDK runs on our
 * `fetch` over node:http (http-fetch.ts) with light stand-ins for `Headers` and `FormData`
 * (sdk-globals.ts, lite-headers.ts): together about 60 ms less before the first request
 * (bench/README.md). `XAGENT_FAST_START=0` turns all of it off: xagent runs as plain ES modules on
 * Node's own fetch and globals, which is what to try first when a start-up problem is suspected.
 * (The SDK's modules are still bundled with the stand-ins in place; at this switch they hand
 * over to Node's globals.)
 */
export const FAST_START_ENV = 'XAGENT_FAST_START';

/** Whether the start-up machinery is on (everything but `XAGENT_FAST_START=0`). */
export function fastStart(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[FAST_START_ENV] !== '0';
}
