// `iqm-tools check FILE.iqe ... [--json]` (CLI.md): the language server's validation, printed.
import { readFileSync } from 'node:fs';
import { IqeDocument } from '../core/iqe/document';
import { StdoutBlocks } from './write';
import { COLLECT_BETWEEN_STEPS_FROM, fullCollector } from '../node/heap';
import type { IqeDiagnostic } from '../core/iqe/diagnostic';
import { decodeText, resourceReader } from '../node/text';
import { detectFormat, FORMATS, HEAD_BYTES, unusableMessage } from '../core/formats/registry';
import { openSource } from '../core/formats/sources';
import { resolve } from 'node:path';
import { checkSidecar } from '../core/sidecarCheck/check';
import { textureExtensions } from '../core/engines/textures';
import { sidecarKind } from '../core/lookup/companions';
import { diskSidecarIo } from '../node/sidecarIo';
import { isModeldefName } from '../core/sidecar/modeldef';
import { checkModeldef } from '../core/sidecarCheck/modeldef';
import { validateModel, validatorFor } from '../core/validate/index';
import { parseSeverityOverrides, type Issue, type SeverityOverrides, type ValidationReport } from '../core/validate/report';

/** The JSON shape of CLI.md: 1-based lines and columns. */
export function diagnosticToJson(d: IqeDiagnostic): Record<string, unknown> {
  return {
    line: d.range.line + 1,
    column: d.range.column + 1,
    endLine: d.range.endLine + 1,
    endColumn: d.range.endColumn + 1,
    severity: d.severity,
    code: d.code,
    message: d.message,
  };
}

/** diagnosticToJson with the file it is in (check of several files, compile --json). */
export function fileDiagnosticToJson(file: string, d: IqeDiagnostic): Record<string, unknown> {
  return { file, ...diagnosticToJson(d) };
}

export function formatDiagnostic(file: string, d: IqeDiagnostic): string {
  return `${file}:${d.range.line + 1}:${d.range.column + 1}: ${d.severity}: ${d.message} [${d.code}]`;
}

/** The most diagnostics printed as lines, as the editor's iqmTools.diagnostics.maxProblems default. */
export const TERMINAL_MAX_PROBLEMS = 1000;

const SEVERITY_RANK: Record<string, number> = { error: 0, warning: 1, information: 2, hint: 3 };
const rankOf = (d: IqeDiagnostic): number => SEVERITY_RANK[d.severity] ?? 4;

/**
 * A file's diagnostics: a list, or a function that makes them afresh at each call, one at a time
 * (an IQE's, from its compact problem lists: they are never all held; issue 17).
 */
export type DiagnosticPasses = readonly IqeDiagnostic[] | (() => Iterable<IqeDiagnostic>);

/**
 * Prints diagnostics as lines, at most `max` in all (a file with 145,000 problems printed them
 * all), then one line with the count of the rest. Within a file that reaches the limit the errors
 * are chosen first, printed in line order.
 */
export class DiagnosticLines {
  private shown = 0;
  private omitted = 0;
  private omittedErrors = 0;

  constructor(
    private readonly write: (text: string) => void | Promise<void>,
    /** Where the rest can be seen, for the closing line. */
    private readonly rest: string,
    private readonly max = TERMINAL_MAX_PROBLEMS,
  ) {}

  /**
   * Prints a file's diagnostics; whether any is an error. A first pass counts them by severity
   * (and keeps them while they are few); when more than fit or were kept, a second pass prints
   * the chosen ones as they come.
   */
  async print(file: string, diagnostics: DiagnosticPasses): Promise<boolean> {
    const pass = typeof diagnostics === 'function' ? diagnostics : () => diagnostics;
    const room = Math.max(0, this.max - this.shown);
    const byRank = [0, 0, 0, 0, 0];
    let kept: IqeDiagnostic[] | undefined = [];
    for (const d of pass()) {
      byRank[rankOf(d)]++;
      if (kept && kept.length < TERMINAL_MAX_PROBLEMS) kept.push(d);
      else kept = undefined;
    }
    const total = byRank.reduce((a, b) => a + b, 0);
    // The chosen are the first `room` by (severity, order): every one of a rank below `rank`, and
    // the first `ofRank` of `rank`.
    let rank = 0;
    let below = 0;
    while (rank < byRank.length && below + byRank[rank] <= room) below += byRank[rank++];
    const ofRank = room - below;
    const chosen = Math.min(total, room);
    let block = '';
    const seen = [0, 0, 0, 0, 0];
    let printed = 0;
    // Once the chosen are printed nothing after them is (the 73 MB benchmark file: 1,000 of
    // 3,455), so the pass, which makes each diagnostic afresh, ends there.
    for (const d of chosen > 0 ? (kept ?? pass()) : []) {
      const r = rankOf(d);
      if (r > rank || (r === rank && seen[r]++ >= ofRank)) continue;
      block += formatDiagnostic(file, d) + '\n';
      if (++printed === chosen) break;
      if (block.length >= 65536) {
        await this.write(block);
        block = '';
      }
    }
    if (block.length > 0) await this.write(block);
    this.shown += chosen;
    this.omitted += total - chosen;
    this.omittedErrors += byRank[0] - Math.min(byRank[0], room);
    return byRank[0] > 0;
  }

  /** The closing line when some were not printed. */
  async finish(): Promise<void> {
    if (this.omitted === 0) return;
    const errors = this.omittedErrors > 0 ? ` (${this.omittedErrors} of them errors)` : '';
    await this.write(`… and ${this.omitted} more problems${errors} not shown; ${this.rest}\n`);
  }
}

/**
 * `check FILE.iqe ... [--json] [--all]`: each file as the language server validates it; a
 * .framegroups, animation.cfg, .skin or .shader file is checked against the model beside it, as the
 * server checks it (core/sidecar/check.ts); a MODELDEF against the mod folder it is in. Human lines carry
 * their file; the JSON object lists every file's diagnostics, each with its `file`. A file that
 * cannot be read or is not IQE text is one stderr line. At most TERMINAL_MAX_PROBLEMS lines are
 * printed unless --all is given (--json has every one). Exit 2 when some file could not be
 * checked, else 1 when any error is reported, else 0.
 */
export async function runCheck(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const configAt = args.indexOf('--config');
  const configFile = configAt >= 0 ? args[configAt + 1] : undefined;
  const files = args.filter((a, i) => a !== '--json' && a !== '--all' && (configAt < 0 || (i !== configAt && i !== configAt + 1)));
  const unknown = files.find((a) => a.startsWith('-'));
  if (unknown !== undefined || files.length === 0 || (configAt >= 0 && configFile === undefined)) {
    process.stderr.write(unknown !== undefined ? `check: unknown option '${unknown}'\n` : configAt >= 0 && configFile === undefined ? 'check: --config needs a JSON file\n' : `usage: ${CHECK_USAGE}\n`);
    return 2;
  }
  const overrides = configFile === undefined ? {} : readConfig(configFile);
  if (typeof overrides === 'string') {
    process.stderr.write(`${configFile}: ${overrides}\n`);
    return 2;
  }
  const out = new StdoutBlocks();
  const lines = new DiagnosticLines((text) => out.write(text), '--json lists them all, --all prints them all', args.includes('--all') ? Infinity : TERMINAL_MAX_PROBLEMS);
  let unchecked = false;
  let errors = false;
  // --json: one object, written as its diagnostics come (byte for byte JSON.stringify of the
  // whole: no spaces), so that they are never all held.
  let listed = 0;
  if (json) await out.write('{"diagnostics":[');
  const report = async (file: string, diagnostics: DiagnosticPasses): Promise<void> => {
    if (!json) {
      // Each file's lines as they are found: a long list of files shows progress.
      if (await lines.print(file, diagnostics)) errors = true;
      return;
    }
    for (const d of typeof diagnostics === 'function' ? diagnostics() : diagnostics) {
      if (d.severity === 'error') errors = true;
      await out.write((listed++ > 0 ? ',' : '') + JSON.stringify(fileDiagnosticToJson(file, d)));
    }
  };
  const models: Record<string, unknown>[] = [];
  for (const file of files) {
    const checked = await checkFile(file, overrides);
    if (typeof checked === 'string') {
      process.stderr.write(`${file}: ${checked}\n`);
      unchecked = true;
    } else if ('issues' in checked) {
      // A binary model: the validator's issues (core/validate), at byte offsets.
      if (checked.counts.error > 0) errors = true;
      models.push({ file, format: checked.format, counts: checked.counts, omitted: checked.omitted, notes: checked.notes });
      if (json) {
        for (const issue of checked.issues) await out.write((listed++ > 0 ? ',' : '') + JSON.stringify(issueToJson(file, issue)));
      } else await out.write(formatReport(file, checked));
    } else await report(file, checked);
  }
  // "models" only when a binary model was validated: an IQE-only run's JSON stays as it was.
  if (json) await out.write(models.length ? `],"models":${JSON.stringify(models)}}\n` : ']}\n');
  else await lines.finish();
  await out.flush();
  return unchecked ? 2 : errors ? 1 : 0;
}

export const CHECK_USAGE = 'iqm-tools check FILE ... [--json] [--all] [--config FILE.json]  (FILE: .iqm, .md3, .dpm, .iqe, .md5mesh, .smd, .obj, .gltf, .glb, .framegroups, animation.cfg, .skin, .shader, modeldef*)';

/** The severity overrides of a --config file, or what is wrong with it. */
function readConfig(file: string): SeverityOverrides | string {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return error instanceof SyntaxError ? `not JSON: ${error.message}` : `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
  const { overrides, errors } = parseSeverityOverrides(json);
  return errors.length ? errors.join('; ') : overrides;
}

/** A validator issue in check's JSON: the diagnostics' keys, with the byte offset, the kind and where it is instead of a line. */
export function issueToJson(file: string, issue: Issue): Record<string, unknown> {
  return { file, severity: issue.severity, code: issue.code, message: issue.message, kind: issue.kind, offset: issue.offset, where: issue.where };
}

/** A model's report as lines: `file: byte N: severity: message [code]`, then the counted rest per code and the notes. */
export function formatReport(file: string, report: ValidationReport): string {
  let text = '';
  for (const i of report.issues) text += `${file}: byte ${i.offset}: ${i.severity}: ${i.message} [${i.code}]\n`;
  for (const [code, n] of Object.entries(report.omitted)) text += `${file}: … and ${n} more [${code}] (each code is listed ${report.issues.filter((i) => i.code === code).length} times)\n`;
  for (const note of report.notes) text += `${file}: note: ${note}\n`;
  return text;
}

/** One file's diagnostics (a binary model: the validator's report), or why it could not be checked. */
async function checkFile(file: string, overrides: SeverityOverrides): Promise<DiagnosticPasses | ValidationReport | string> {
  const read = await readForCheck(file, overrides);
  if (!('iqe' in read)) return read.outcome;
  // IQE: the language server's checks, made afresh at each pass from the document's compact
  // problem lists. The file's bytes are dropped by now, and freed before the parse where they
  // are large (an ArrayBuffer waits for a full collection, which a parse seldom brings soon).
  const collect = read.iqe.length >= COLLECT_BETWEEN_STEPS_FROM ? fullCollector() : null;
  collect?.();
  const document = new IqeDocument(read.iqe);
  document.analyse();
  return () => document.eachDiagnostic({ maxProblems: Number.MAX_SAFE_INTEGER });
}

/** A file's diagnostics or why it could not be checked (`outcome`), or the text of an IQE (`iqe`). */
async function readForCheck(file: string, overrides: SeverityOverrides): Promise<{ outcome: DiagnosticPasses | ValidationReport | string } | { iqe: string }> {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    return { outcome: `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  }
  // MODELDEF (GZDoom, UZDoom): checked against the mod folder it is in (core/sidecarCheck/modeldef.ts).
  if (isModeldefName(file)) return { outcome: (await checkModeldef(resolve(file), new TextDecoder('latin1').decode(bytes), diskSidecarIo)).diagnostics };
  const kind = sidecarKind(file);
  if (kind !== undefined) {
    // Latin-1: these files are ASCII, and a stray byte must not shift the columns.
    return { outcome: (await checkSidecar(kind, resolve(file), new TextDecoder('latin1').decode(bytes), diskSidecarIo, textureExtensions([]))).diagnostics };
  }
  const format = detectFormat(bytes.subarray(0, HEAD_BYTES), file);
  if (validatorFor(format)) return { outcome: validateModel(bytes, { overrides }) ?? `${FORMATS[format].label} could not be validated` };
  const other = unusableMessage(format, 'compile');
  if (other) return { outcome: other };
  // IQE (and text in no other format): the language server's checks. The whole file, however
  // large: the CLI has no problem limit unless the caller filters.
  if (FORMATS[format].streams) return { iqe: decodeText(bytes) };
  // MD5, SMD, OBJ and glTF sources: what their readers say (the compile's errors).
  return { outcome: (await openSource({ bytes }, file, resourceReader(file), undefined, format)).read().diagnostics };
}
