#!/usr/bin/env node
import { verifyEvidenceCommand } from './verify.js';

// `npm run verify-evidence -- <bundle.zip>`: npm starts scripts in the package root, so paths are
// taken from the folder the command was typed in (INIT_CWD).
const code = await verifyEvidenceCommand(process.argv.slice(2), {
  cwd: process.env.INIT_CWD ?? process.cwd(),
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
process.exitCode = code;
