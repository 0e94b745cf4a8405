// Output of a command that must start fast (compile): written to the file descriptor directly.
// The first use of process.stdout or process.stderr loads Node's stream modules (and, for a pipe,
// net): ~3 ms of a small compile's start (bench/compile-small.ts). Where the direct write fails
// (a full non-blocking pipe: EAGAIN, ...) the stream takes the text as before.
import { writeSync } from 'node:fs';

function writeAll(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done);
  } catch {
    (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(done));
  }
}

export function writeStdout(text: string): void {
  writeAll(1, text);
}

export function writeStderr(text: string): void {
  writeAll(2, text);
}

/**
 * Text for stdout gathered into blocks of about 64 KB, each written when the stream has taken the
 * one before: a command that streams a long output (check --json of 100,000 problems) holds one
 * block, not the whole output (writes to a pipe are asynchronous: without waiting, node queues
 * everything written in memory).
 */
export class StdoutBlocks {
  private pending = '';

  async write(text: string): Promise<void> {
    this.pending += text;
    if (this.pending.length >= 65536) await this.flush();
  }

  async flush(): Promise<void> {
    const block = this.pending;
    this.pending = '';
    if (block.length > 0 && !process.stdout.write(block)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
}
