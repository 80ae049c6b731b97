// Preloaded into a process with NODE_OPTIONS="--require <this file>": when the process exits, it
// writes the files of the ajv package that the process loaded (required, or imported from an ES
// module) to $AJV_PROBE_DIR/<pid>.json. CommonJS, because --require takes CommonJS.
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');

const isAjv = (file) => typeof file === 'string' && /[\\/]node_modules[\\/]ajv[\\/]/.test(file);
const compiled = new Set();
// Every CommonJS file Node runs is compiled here, whichever loader asked for it.
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
  if (isAjv(filename)) compiled.add(filename);
  return compile.call(this, content, filename);
};

process.on('exit', () => {
  const cached = Object.keys(require.cache).filter(isAjv);
  const loaded = [...new Set([...compiled, ...cached])].sort();
  fs.writeFileSync(path.join(process.env.AJV_PROBE_DIR, `${process.pid}.json`), JSON.stringify(loaded));
});
