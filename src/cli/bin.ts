#!/usr/bin/env node
/**
 * What the `xagent` command runs. `--version`, which scripts and installers call to check an
 * install, is answered here, before the CLI itself (commander and every command, ~130 kB) is
 * loaded and compiled; anything else goes to main.ts.
 */
// First, so that Ctrl-C during start-up already exits 130.
import './early-signals.js';
import { packageVersion } from '../run/version.js';

const [first, ...rest] = process.argv.slice(2);
if ((first === '--version' || first === '-V') && rest.length === 0) process.stdout.write(`${packageVersion()}\n`);
else await import('./main.js');
