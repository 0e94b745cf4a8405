// Mutation fuzzing of the IQE paths (issue 17). Mutations: the line-level edits of the compile fuzz
// (lines deleted, doubled, swapped, numbers replaced by extreme or malformed values, command lines
// inserted), and what users and exporters make by hand: line endings changed (CR-only, CRLF,
// mixed) with and without a comment section, lines made very long, deep joint chains and parent
// cycles, characters flipped, the text cut anywhere. Oracle (exerciseIqe): the document the server
// and `check` validate gives diagnostics inside their lines; the outline and folding can be sent;
// the compile writes bytes exactly when there is no error and they read back with the counts it
// reported, and a compile never loses what the check counted; the streamed reader reaches the
// same verdict; `sample` gives one position per `vp`; every line-ending style gives the same
// diagnostics. Anything else (a throw, a disagreement) is a failure.
import { compileSourceText } from './compile-iqm';
import { IqeIngest } from '../../core/compile/ingest';
import { IqeDocument } from '../../core/iqe/document';
import { summarizeIqe } from '../../core/iqe/summary';
import { readModel } from '../../core/formats/models';
import type { DocumentSymbol } from 'vscode-languageserver';
import { documentSymbols, MAX_OUTLINE_DEPTH } from '../../server/symbols';
import { foldingRanges } from '../../server/folding';
import { iqeModel } from '../../cli/info';
import { sampleModel } from '../../cli/sample';
import { prng } from './iqe-fixtures';
import type { IqeDiagnostic } from '../../core/iqe/diagnostic';

const NUMBERS = ['-1', '0', '-0', '1', '2', '3.5', '255', '256', '65536', '2147483648', '-2147483649', '1e308', '-1e308', '1e-320', 'nan', 'inf', '0x10', '1e', '', 'x', '1,5', '0/1'];
const LINES = [
  'joint "extra" 0', 'joint "loop" 7', 'joint "far" -5', 'mesh "second"', 'material "other"', 'fm 0 1 99999', 'fa -1 0 1', 'fm 0 0 0',
  'vb 300 1', 'vb 0 0', 'vb 1 -1 2 2', 'pq 1 2 3', 'pq 0 0 0 0 0 0 0', 'pm 0 0 0 1 0 0 0 1 0 0 0 1', 'pa 0 0 0 90 0 0', 'frame', 'animation "a2"',
  'framerate -3', 'loop', 'vertexarray custom0 float 4 "c"', 'vertexarray position half 3', 'vertexarray normal ubyte 3', 'fs 1 2 3', 'smoothuv 1',
  'smoothgroup 3', 'smoothangle 181', 'vs 0', 'comment', 'comment trailing', 'vp 1 2 3 4', 'vx 1 0 0 1', 'vx 1 0 0 0 1 0', 'vc 1 0 0 1', 'v0 1 2 3 4',
  'vt 0.5', 'vn 0 0 0', 'VP 1 2 3', 'mesh "unterminated', '', '# a comment', '\t', 'vp', 'vb',
];

/** `line` with one of its numbers (after the command word) replaced by one of `numbers`. */
export function replaceNumber(line: string, random: () => number, numbers: readonly string[]): string {
  const words = line.split(' ');
  const numeric = words.map((w, i) => (i > 0 && /^-?[\d.]/.test(w) ? i : -1)).filter((i) => i >= 0);
  if (numeric.length > 0) words[numeric[Math.floor(random() * numeric.length)]] = numbers[Math.floor(random() * numbers.length)];
  return words.join(' ');
}

export interface IqeMutation {
  text: string;
  what: string;
}

/** One to four edits of `text`; `what` says which. */
export function mutateIqe(text: string, random: () => number): IqeMutation {
  const pick = (n: number): number => Math.floor(random() * n);
  let lines = text.split('\n');
  const what: string[] = [];
  const edits = 1 + pick(4);
  let eol = '\n';
  for (let e = 0; e < edits && lines.length > 1; e++) {
    const at = 1 + pick(lines.length - 1);
    const kind = pick(12);
    switch (kind) {
      case 0:
        lines.splice(at, 1);
        what.push(`line ${at} deleted`);
        break;
      case 1:
        lines.splice(at, 0, lines[at]);
        what.push(`line ${at} doubled`);
        break;
      case 2: {
        const other = 1 + pick(lines.length - 1);
        [lines[at], lines[other]] = [lines[other], lines[at]];
        what.push(`lines ${at} and ${other} swapped`);
        break;
      }
      case 3:
        lines[at] = replaceNumber(lines[at], random, NUMBERS);
        what.push(`a number of line ${at} replaced`);
        break;
      case 4:
      case 5: {
        const line = LINES[pick(LINES.length)];
        lines.splice(at, 0, line);
        what.push(`'${line}' inserted at ${at}`);
        break;
      }
      case 6: {
        // A very long line: a command with thousands of values (valid or not).
        const n = 500 + pick(8000);
        const command = ['vb', 'fm', 'fa', 'vp', 'pq', 'fs', 'joint j'][pick(7)];
        const values = Array.from({ length: n }, (_, i) => (command === 'vb' ? `${pick(400)} ${[0.5, -1, 0][pick(3)]}` : String(pick(3) === 0 ? 1000 + i : pick(10))));
        lines.splice(at, 0, `${command} ${values.join(' ')}`);
        what.push(`a ${command} line of ${n} values at ${at}`);
        break;
      }
      case 7: {
        // A joint chain, each the parent of the next; sometimes closed into a cycle.
        const n = 100 + pick(4000);
        const cycle = random() < 0.3;
        const chain = Array.from({ length: n }, (_, i) => `joint c${i} ${i === 0 ? (cycle ? n - 1 : -1) : i - 1}`);
        lines.splice(at, 0, ...chain);
        what.push(`a chain of ${n} joints${cycle ? ' (a cycle)' : ''} at ${at}`);
        break;
      }
      case 8: {
        // A character flipped to another (line breaks, quotes, digits, letters).
        const line = lines[at];
        if (line.length > 0) {
          const c = pick(line.length);
          const to = ['\r', '"', '0', '9', '-', '.', 'e', ' ', '\t', 'x', '#', '\u00e9', '\u{1F600}'][pick(13)];
          lines[at] = line.slice(0, c) + to + line.slice(c + 1);
          what.push(`character ${c} of line ${at} made ${JSON.stringify(to)}`);
        }
        break;
      }
      case 9:
        lines = lines.slice(0, at);
        lines.push(text.split('\n')[at]?.slice(0, pick(20)) ?? '');
        what.push(`cut in line ${at}`);
        break;
      case 10:
        eol = ['\r', '\r\n', 'mixed'][pick(3)];
        what.push(`line endings ${JSON.stringify(eol)}`);
        break;
      default: {
        const blanks = 1 + pick(2000);
        lines.splice(at, 0, ...Array.from({ length: blanks }, () => ''));
        what.push(`${blanks} blank lines at ${at}`);
      }
    }
  }
  let out: string;
  if (eol === 'mixed') {
    out = lines[0];
    for (let i = 1; i < lines.length; i++) out += (lines[i - 1] === '' ? ['\n', '\r\n'] : ['\n', '\r\n', '\r'])[pick(lines[i - 1] === '' ? 2 : 3)] + lines[i];
  } else out = lines.join(eol);
  return { text: out, what: what.join('; ') };
}

/** The same text with every line break a lone CR (no CR in it before: the lines stay the lines). */
function crOnly(text: string): string | null {
  return text.includes('\r') ? null : text.replace(/\n/g, '\r');
}

function fail(message: string): never {
  throw new Error(message);
}

export interface IqeExercise {
  /** Bytes of typed arrays the parsed document holds. */
  owned: number;
  /** The slowest path on this input, and its time (ms). */
  slowestPath: string;
  slowestMs: number;
}

/** This process's CPU time (ms, user + system, every thread). */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Times the paths of one input into `result` (CPU time, not wall time: a path that waited for a CPU
 * on a loaded machine is not slow): `timed` runs and times one, `record` adds a time measured apart.
 */
export function pathTimer(result: IqeExercise): { timed: <T>(path: string, run: () => T) => T; record: (path: string, ms: number) => void } {
  const record = (path: string, ms: number): void => {
    if (ms > result.slowestMs) {
      result.slowestMs = ms;
      result.slowestPath = path;
    }
  };
  const timed = <T>(path: string, run: () => T): T => {
    const start = cpuMs();
    const value = run();
    record(path, cpuMs() - start);
    return value;
  };
  return { timed, record };
}

/** Fails unless every diagnostic is within the text's `lineCount` lines and has a message. */
export function checkWithinLines(diagnostics: readonly IqeDiagnostic[], lineCount: number): void {
  for (const d of diagnostics) {
    const r = d.range;
    if (!(r.line >= 0 && r.line <= r.endLine && r.endLine < lineCount && r.column >= 0 && r.endColumn >= 0) || !d.message) fail(`a diagnostic outside the text's ${lineCount} lines or without a message: ${JSON.stringify(d)}`);
  }
}

/** The IQE paths on one text, each timed (CPU time); throws on a failure. */
export function exerciseIqe(text: string): IqeExercise {
  const result: IqeExercise = { owned: 0, slowestPath: '', slowestMs: 0 };
  const { timed } = pathTimer(result);
  const doc = new IqeDocument(text);
  const diagnostics = timed('check (parse and validate)', () => doc.diagnostics({ maxProblems: Number.MAX_SAFE_INTEGER }));
  checkWithinLines(diagnostics, doc.lineCount);
  // The server's outline and folding, as sent (JSON).
  const outline = timed('server outline and folding', () => {
    const symbols = documentSymbols(doc);
    JSON.stringify([symbols, foldingRanges(doc)]);
    return symbols;
  });
  // The server sends the outline as one message, serialised recursively: its depth stays bounded.
  const depth = (list: DocumentSymbol[] | undefined): number => (list ?? []).reduce((d, s) => Math.max(d, 1 + depth(s.children)), 0);
  if (depth(outline) > MAX_OUTLINE_DEPTH + 1) fail(`the outline nests ${depth(outline)} deep`);
  const summary = timed('info', () => summarizeIqe(doc));
  const analysis = doc.analyse();
  result.owned = doc.parsedChunks.reduce((n, c) => n + c.lineMarks.byteLength + c.kind.byteLength + c.flags.byteLength + c.flagged.byteLength + c.valueStart.byteLength + c.values.byteLength, 0);

  const hasError = diagnostics.some((d) => d.severity === 'error');
  const compiled = timed('compile', () => compileSourceText(text));
  if ((compiled.bytes !== undefined) === hasError) fail(`compile wrote ${compiled.bytes ? 'bytes' : 'nothing'} with ${hasError ? 'errors' : 'no error'}`);
  if (compiled.bytes) {
    const model = readModel(compiled.bytes);
    if (model.meshes.length !== compiled.stats.meshes || model.frameCount !== compiled.stats.frames) fail('the compiled IQM does not read back with the counts the compile reported');
    if (compiled.stats.joints > 0 && compiled.stats.joints !== analysis.jointCount) fail(`compile wrote ${compiled.stats.joints} joints, the check counts ${analysis.jointCount}`);
  }
  // The streamed reader (the CLI's compile), in pieces.
  const streamed = timed('streamed reader', () => {
    const stream = new IqeIngest(1000);
    for (let p = 0; p < text.length; p += 4093) stream.push(text.slice(p, p + 4093));
    return stream.finish();
  });
  if (streamed.ok === hasError) fail(`the streamed reader's verdict (${streamed.ok ? 'no error' : 'errors'}) differs from the check's`);
  if (streamed.ok && streamed.input.vertexCount !== analysis.vertexCount) fail(`the streamed reader read ${streamed.input.vertexCount} vertices, the check ${analysis.vertexCount}`);
  // sample in vp order: one position per vp.
  if (!hasError) {
    timed('sample', () => {
      const loaded = iqeModel('fuzz.iqe', text, 'vp');
      if (!loaded.ok) return;
      const sampled = sampleModel(loaded.model, -1);
      if (typeof sampled !== 'string' && sampled.positions.length !== 3 * analysis.vertexCount) fail(`sample gave ${sampled.positions.length / 3} vertices for ${analysis.vertexCount} vp lines`);
    });
  }
  if (summary.meshes.some((m) => m.vertices < 0 || m.triangles < 0)) fail('info counts below 0');
  // Line endings do not change what is found.
  const cr = crOnly(text);
  if (cr !== null) {
    const other = timed('check of the CR-only text', () => new IqeDocument(cr).diagnostics({ maxProblems: Number.MAX_SAFE_INTEGER }));
    if (JSON.stringify(other) !== JSON.stringify(diagnostics)) fail('the CR-only text has other diagnostics');
    if (!hasError && timed('compile of the CR-only text', () => compileSourceText(cr)).stats.vertices !== compiled.stats.vertices) fail('the CR-only text compiles other vertices');
  }
  return result;
}

/** Seeds for the IQE fuzz: a generated skinned model, a deep chain, a comment section; real files are added by the caller. */
export function generatedIqeSeeds(skinned: string): { name: string; text: string }[] {
  const random = prng(5);
  const chain = ['# Inter-Quake Export', ...Array.from({ length: 300 }, (_, i) => `joint j${i} ${i - 1}`), ...Array.from({ length: 300 }, () => 'pq 0 0 0.1 0 0 0 1'), 'mesh m'];
  for (let i = 0; i < 30; i++) chain.push(`vp ${random().toFixed(3)} ${random().toFixed(3)} ${i}`, `vb ${i * 10} 1`);
  for (let i = 0; i + 2 < 30; i++) chain.push(`fa ${i} ${i + 1} ${i + 2}`);
  return [
    { name: 'generated skinned model', text: skinned },
    { name: 'generated joint chain', text: chain.join('\n') + '\n' },
    { name: 'generated comment section', text: skinned + 'comment\nmade by hand\nvp 1 2 3\n' },
  ];
}
