// Diagnostic output of the e2e harness.
//
// `log` prints the harness's own messages to stderr. `OutputTail` keeps the
// recent output of a process the harness started (for error messages),
// optionally appends all of it to a log file, and echoes it live to stderr
// when GATEHOUSE_E2E_DEBUG=1.

import { appendFile } from 'node:fs/promises';

const DEBUG = process.env.GATEHOUSE_E2E_DEBUG === '1';

export function log(...args) {
  console.error('[e2e]', ...args);
}

/** Keeps the last `max` chars of a stream's output, optionally also appending to a file. */
export class OutputTail {
  constructor(max = 20_000, file) {
    this.max = max;
    this.text = '';
    this.file = file;
    this.pending = Promise.resolve();
  }
  attach(stream, label) {
    if (!stream) return;
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      this.text = (this.text + chunk).slice(-this.max);
      if (this.file) this.pending = this.pending.then(() => appendFile(this.file, chunk)).catch(() => {});
      if (DEBUG) process.stderr.write(`[${label}] ${chunk}`);
    });
  }
  toString() {
    return this.text;
  }
}
