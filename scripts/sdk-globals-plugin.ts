import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'esbuild';

const SDK_MODULE = /[\\/]node_modules[\\/]@anthropic-ai[\\/]sdk[\\/].*\.mjs$/;
const NAMES = ['Headers', 'FormData'] as const;
const WEB_STREAM_CHECK = /globalThis\.ReadableStream\s*&&\s*([\w.]+)\s+instanceof\s+globalThis\.ReadableStream/g;

/**
 * An esbuild plugin: inside the Anthropic SDK's modules only, `Headers` and `FormData` name our
 * stand-ins (src/startup/sdk-globals.ts) instead of Node's globals, by prepending an import that
 * shadows the global in that module, and its `instanceof ReadableStream` checks of a body go
 * through `isWebReadableStream`. On Node 20 those globals load undici, ~20 ms before the
 * first model request, and undici's Headers costs CPU on every request (bench/README.md).
 * Everything else in the bundle (the MCP SDK's HTTP transport, our fallback `fetch`) keeps the
 * real globals.
 * @example build({ ..., plugins: [sdkGlobalsPlugin(path.join(root, 'src/startup/sdk-globals.ts'))] })
 */
export function sdkGlobalsPlugin(standIns: string): Plugin {
  return {
    name: 'sdk-globals',
    setup(build) {
      build.onLoad({ filter: SDK_MODULE }, async (args) => {
        // `globalThis.X && v instanceof globalThis.X` reads the lazy global (loading web streams, ~2 ms)
        // just to learn that a JSON body is not a stream; the stand-in asks the value's tag first.
        const source = (await readFile(args.path, 'utf8')).replace(WEB_STREAM_CHECK, 'isWebReadableStream($1)');
        const used = [...NAMES, 'isWebReadableStream'].filter((name) => new RegExp(`\\b${name}\\b`).test(source));
        if (used.length === 0) return undefined;
        const from = JSON.stringify(standIns.split(path.sep).join('/'));
        return { contents: `import { ${used.join(', ')} } from ${from};\n${source}`, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}
