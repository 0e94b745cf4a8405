// `iqm-tools check FILE.iqe ... [--json]` (CLI.md): the language server's validation, printed.
import { readFileSync } from 'node:fs';
import { validateIqe } from '../core/iqe/document';
import type { IqeDiagnostic } from '../core/iqe/diagnostic';
import { decodeText, isGltfHead, notIqeText, resourceReader, siblingReader } from '../node/text';
import { gltfSource } from '../core/gltf/source';
import { sourceFormat } from '../core/compile/format';
import { readSourceText } from '../core/compile/sources';
import { resolve } from 'node:path';
import { checkSidecar, textureExtensions } from '../core/sidecar/check';
import { sidecarKind } from '../core/sidecar/companions';
import { diskSidecarIo } from '../node/sidecarIo';

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
    private readonly write: (text: string) => void,
    /** Where the rest can be seen, for the closing line. */
    private readonly rest: string,
    private readonly max = TERMINAL_MAX_PROBLEMS,
  ) {}

  print(file: string, diagnostics: readonly IqeDiagnostic[]): void {
    const room = Math.max(0, this.max - this.shown);
    let chosen = diagnostics;
    if (diagnostics.length > room) {
      const rank = (i: number): number => SEVERITY_RANK[diagnostics[i].severity] ?? 4;
      const order = diagnostics.map((_, i) => i).sort((a, b) => rank(a) - rank(b) || a - b).slice(0, room).sort((a, b) => a - b);
      chosen = order.map((i) => diagnostics[i]);
      const errors = (list: readonly IqeDiagnostic[]): number => list.reduce((n, d) => n + (d.severity === 'error' ? 1 : 0), 0);
      this.omitted += diagnostics.length - chosen.length;
      this.omittedErrors += errors(diagnostics) - errors(chosen);
    }
    if (chosen.length > 0) this.write(chosen.map((d) => formatDiagnostic(file, d)).join('\n') + '\n');
    this.shown += chosen.length;
  }

  /** The closing line when some were not printed. */
  finish(): void {
    if (this.omitted === 0) return;
    const errors = this.omittedErrors > 0 ? ` (${this.omittedErrors} of them errors)` : '';
    this.write(`… and ${this.omitted} more problems${errors} not shown; ${this.rest}\n`);
  }
}

/**
 * `check FILE.iqe ... [--json] [--all]`: each file as the language server validates it; a
 * .framegroups, animation.cfg, .skin or .shader file is checked against the model beside it, as the
 * server checks it (core/sidecar/check.ts). Human lines carry
 * their file; the JSON object lists every file's diagnostics, each with its `file`. A file that
 * cannot be read or is not IQE text is one stderr line. At most TERMINAL_MAX_PROBLEMS lines are
 * printed unless --all is given (--json has every one). Exit 2 when some file could not be
 * checked, else 1 when any error is reported, else 0.
 */
export async function runCheck(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const files = args.filter((a) => a !== '--json' && a !== '--all');
  const unknown = files.find((a) => a.startsWith('-'));
  if (unknown !== undefined || files.length === 0) {
    process.stderr.write(unknown !== undefined ? `check: unknown option '${unknown}'\n` : 'usage: iqm-tools check FILE ... [--json] [--all]  (FILE: .iqe, .md5mesh, .smd, .obj, .gltf, .glb, .framegroups, animation.cfg, .skin, .shader)\n');
    return 2;
  }
  const lines = new DiagnosticLines((text) => process.stdout.write(text), '--json lists them all, --all prints them all', args.includes('--all') ? Infinity : TERMINAL_MAX_PROBLEMS);
  let unchecked = false;
  let errors = false;
  const all: { file: string; diagnostic: IqeDiagnostic }[] = [];
  const report = (file: string, diagnostics: readonly IqeDiagnostic[]): void => {
    if (diagnostics.some((d) => d.severity === 'error')) errors = true;
    if (json) {
      for (const diagnostic of diagnostics) all.push({ file, diagnostic });
    } else {
      // Each file's lines as they are found: a long list of files shows progress.
      lines.print(file, diagnostics);
    }
  };
  for (const file of files) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      process.stderr.write(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
      unchecked = true;
      continue;
    }
    const kind = sidecarKind(file);
    if (kind !== undefined) {
      // Latin-1: these files are ASCII, and a stray byte must not shift the columns.
      const sidecar = await checkSidecar(kind, resolve(file), new TextDecoder('latin1').decode(bytes), diskSidecarIo, textureExtensions([]));
      report(file, sidecar.diagnostics);
      continue;
    }
    if (isGltfHead(bytes.subarray(0, 4096), file)) {
      // A glTF: what its reader says (decoded first: core/gltf/source.ts).
      report(file, (await gltfSource(bytes, file, resourceReader(file))).read().diagnostics);
      continue;
    }
    const other = notIqeText(bytes);
    if (other) {
      process.stderr.write(`${file}: ${other}\n`);
      unchecked = true;
      continue;
    }
    // The whole file, however large: the CLI has no problem limit unless the caller filters.
    const text = decodeText(bytes);
    const format = sourceFormat(text, file);
    // MD5, SMD and OBJ sources: what their readers say (the compile's errors); IQE: the language server's checks.
    report(file, format === 'iqe' || format === 'unknown' ? validateIqe(text, { maxProblems: Number.MAX_SAFE_INTEGER }) : readSourceText(text, file, siblingReader(file)).diagnostics);
  }
  if (!json) lines.finish();
  if (json) process.stdout.write(JSON.stringify({ diagnostics: all.map(({ file, diagnostic }) => fileDiagnosticToJson(file, diagnostic)) }) + '\n');
  return unchecked ? 2 : errors ? 1 : 0;
}
