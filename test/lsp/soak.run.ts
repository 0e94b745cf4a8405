// `npm run soak` (.ci/run): the real language server over stdio on every real IQE asset of
// ../shared/assets/iqe: open it, edit it 500 times in bursts (typing, pasted lines, deleted
// lines, a long line, a joint chain, line breaks of every style) with requests interleaved
// (outline, folding, hover, definition, references, completion, quick fixes), and close it. Every
// request must be answered (within 2 minutes: lost, else), the last diagnostics must equal those of the final text
// parsed afresh, and the server must stay up. The last line says SOAK OK or SOAK FAILED.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { validateIqe } from '../../core/iqe/document';
import { DEFAULT_SETTINGS } from '../../server/settings';
import { prng } from '../helpers/iqe-fixtures';
import { DebugMemoryRequest, type DebugMemoryResult } from '../../core/lspMethods';
import { TestServer, withTimeout } from './helpers/server';

/** Edits per asset (IQM_SOAK_EDITS for a shorter local run). */
const EDITS = Number(process.env.IQM_SOAK_EDITS ?? 500);
// A request unanswered this long is lost (a hang): the soak holds the server to answering, not to
// a latency (bench/lsp-edit.ts measures that; on a loaded machine answers take seconds).
const ANSWER_MS = 120_000;
const ASSETS = resolve('..', 'shared', 'assets', 'iqe');

/**
 * Line starts of `text` (LSP: \n, \r\n or \r end a line), by a native search rather than a loop
 * over the characters: this client computes them after every edit, and on a 2 MB asset the loop
 * was most of the run's CPU (the server's answers waited in the pipe while it ran: the "slowest
 * answers" of 14-60 s were this client's own time, not the server's).
 */
function lineStarts(text: string): number[] {
  const starts = [0];
  const breaks = /\r\n|\r|\n/g;
  while (breaks.exec(text) !== null) starts.push(breaks.lastIndex);
  return starts;
}

function lineLength(text: string, starts: number[], line: number): number {
  let end = line + 1 < starts.length ? starts[line + 1] : text.length;
  if (end > starts[line] && text.charCodeAt(end - 1) === 10) end--;
  if (end > starts[line] && text.charCodeAt(end - 1) === 13) end--;
  return end - starts[line];
}

/** CPU time the server has used so far (ms): with the wall time, it tells waiting on a loaded machine from work. */
async function serverCpuMs(server: TestServer): Promise<number> {
  return (await server.request<DebugMemoryResult>(DebugMemoryRequest.method, {}, ANSWER_MS)).cpuMs ?? NaN;
}

async function soak(server: TestServer, file: string, seed: number): Promise<{ requests: number; ms: number; cpuMs: number; clientCpuMs: number; slowest: string }> {
  const random = prng(seed);
  const pick = (n: number): number => Math.floor(random() * n);
  const uri = pathToFileURL(file).toString();
  let text = readFileSync(file, 'utf8');
  let version = 1;
  const started = performance.now();
  const cpuBefore = await serverCpuMs(server);
  const clientBefore = process.cpuUsage();
  await server.open(uri, text, version);
  let requests = 0;
  let slowest = { ms: 0, method: '' };
  const unanswered: string[] = [];
  const pending: Promise<unknown>[] = [];
  const ask = (method: string, params: unknown): void => {
    requests++;
    const sent = performance.now();
    const what = `${method} at version ${version}`;
    pending.push(
      withTimeout(server.request(method, params, ANSWER_MS), ANSWER_MS + 1000, what).then(
        () => {
          const ms = performance.now() - sent;
          if (ms > slowest.ms) slowest = { ms, method: what };
        },
        (error: unknown) => unanswered.push(error instanceof Error ? error.message : String(error)),
      ),
    );
  };
  // The line starts of the current text, computed once per edit.
  let starts = lineStarts(text);
  const position = (): { line: number; character: number } => {
    const line = pick(starts.length);
    return { line, character: pick(lineLength(text, starts, line) + 1) };
  };
  for (let done = 0; done < EDITS; ) {
    // A burst of 1 to 25 edits sent back to back, then requests.
    const burst = Math.min(EDITS - done, 1 + pick(25));
    for (let b = 0; b < burst; b++, done++) {
      const at = position();
      let end = at;
      let insert: string;
      // Mostly typing; now and then a pasted long line or joint chain (1 in 40 edits each).
      const kind = pick(40);
      switch (kind < 2 ? kind + 2 : kind < 8 ? [0, 1, 4, 5, 6, 7][kind - 2] : kind < 12 ? 5 : kind % 2 === 0 ? 6 : 4) {
        case 0:
          insert = 'vp 1 2 3\n';
          break;
        case 1: {
          // Delete a whole line.
          const line = pick(starts.length - 1);
          at.line = line;
          at.character = 0;
          end = { line: line + 1, character: 0 };
          insert = '';
          break;
        }
        case 2:
          insert = `vb ${Array.from({ length: 1000 }, (_, i) => `${i % 300} 0.5`).join(' ')}\n`;
          break;
        case 3:
          insert = `${Array.from({ length: 200 }, (_, i) => `joint s${done}_${i} ${i - 1}`).join('\n')}\n`;
          break;
        case 4:
          insert = ['\r', '\r\n', '\n'][pick(3)];
          break;
        case 5: {
          // Replace a few characters of a line.
          const length = lineLength(text, starts, at.line);
          end = { line: at.line, character: Math.min(length, at.character + pick(6)) };
          insert = ['0', '-1', '9999', '1,5', 'x', ''][pick(6)];
          break;
        }
        default:
          insert = 'fa0 1 2 '.charAt(pick(8));
      }
      const from = starts[at.line] + at.character;
      const to = starts[end.line] + end.character;
      text = text.slice(0, from) + insert + text.slice(to);
      starts = lineStarts(text);
      version++;
      const change: TextDocumentContentChangeEvent = { range: { start: at, end }, text: insert };
      await server.change(uri, version, [change]);
    }
    const doc = { textDocument: { uri } };
    ask('textDocument/documentSymbol', doc);
    ask('textDocument/foldingRange', doc);
    ask('textDocument/hover', { ...doc, position: position() });
    ask('textDocument/definition', { ...doc, position: position() });
    ask('textDocument/references', { ...doc, position: position(), context: { includeDeclaration: true } });
    ask('textDocument/completion', { ...doc, position: position() });
    const p = position();
    ask('textDocument/codeAction', { ...doc, range: { start: p, end: p }, context: { diagnostics: [] } });
  }
  await Promise.all(pending);
  if (unanswered.length > 0) throw new Error(`${unanswered.length} of ${requests} requests unanswered, e.g. ${unanswered[0]}`);
  // The last diagnostics are those of the final text, parsed afresh.
  const published = await server.waitForVersion(uri, version, ANSWER_MS);
  const expected = validateIqe(text);
  const shape = (list: readonly { range: unknown; code?: unknown; message: string }[]): string => JSON.stringify(list.map((d) => [d.code, d.message]));
  const got = (published.diagnostics as Diagnostic[]).filter((d) => d.code !== 'too-many-problems');
  const want = expected.filter((d) => d.code !== 'too-many-problems');
  if (shape(got) !== shape(want)) throw new Error(`${file}: the diagnostics after ${EDITS} edits (${got.length}) differ from a fresh parse of the text (${want.length})`);
  await server.close(uri);
  const client = process.cpuUsage(clientBefore);
  return { requests, ms: performance.now() - started, cpuMs: (await serverCpuMs(server)) - cpuBefore, clientCpuMs: (client.user + client.system) / 1000, slowest: `${slowest.method}: ${slowest.ms.toFixed(0)} ms` };
}

async function main(): Promise<number> {
  if (!existsSync(ASSETS)) {
    console.log(`soak skipped: ${ASSETS} is absent (the real IQE assets)`);
    console.log('SOAK OK: skipped (no assets)');
    return 0;
  }
  const files = readdirSync(ASSETS).flatMap((dir) => readdirSync(join(ASSETS, dir)).filter((f) => f.endsWith('.iqe')).map((f) => join(ASSETS, dir, f))).sort();
  // The editor's default debounce, as a real client validates while typing.
  const server = await TestServer.start({ diagnostics: { debounceMs: DEFAULT_SETTINGS.debounceMs } });
  let failures = 0;
  let total = 0;
  try {
    for (const [i, file] of files.entries()) {
      try {
        const r = await soak(server, file, 17 + i);
        total += r.requests;
        console.log(`${file}: ${EDITS} edits, ${r.requests} requests answered, ${(r.ms / 1000).toFixed(1)} s (CPU: server ${(r.cpuMs / 1000).toFixed(1)} s, this client ${(r.clientCpuMs / 1000).toFixed(1)} s); slowest answer ${r.slowest}`);
      } catch (error) {
        failures++;
        console.log(`FAIL ${file}: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!server.alive) {
        failures++;
        console.log(`FAIL: the server exited (code ${server.exitCode}) after ${file}\n${server.logs.slice(-5).join('\n')}`);
        break;
      }
    }
    // Still up: one more request is answered.
    if (server.alive) {
      try {
        await withTimeout(server.request('textDocument/documentSymbol', { textDocument: { uri: 'file:///closed.iqe' } }, ANSWER_MS), ANSWER_MS + 1000, 'a request after the soak');
      } catch (error) {
        failures++;
        console.log(`FAIL: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    await server.stop();
  }
  const internal = server.logs.filter((l) => /internal-error|Sending response failed/i.test(l));
  if (internal.length > 0) {
    failures++;
    console.log(`FAIL: the server logged ${internal.length} internal errors, e.g. ${internal[0].slice(0, 300)}`);
  }
  console.log(failures ? `SOAK FAILED: ${failures} failures` : `SOAK OK: ${files.length} assets, ${files.length * EDITS} edits, ${total} requests answered, the server up`);
  return failures ? 1 : 0;
}

void main().then((code) => (process.exitCode = code));
