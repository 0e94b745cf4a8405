// `iqm-tools check FILE.iqe ... [--json]` (CLI.md): the language server's validation, printed.
import { readFileSync } from 'node:fs';
import { validateIqe } from '../core/iqe/document';
import type { IqeDiagnostic } from '../core/iqe/diagnostic';
import { decodeText, notIqeText, siblingReader } from '../node/text';
import { sourceFormat } from '../core/compile/format';
import { readSourceText } from '../core/compile/sources';

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

/**
 * `check FILE.iqe ... [--json]`: each file as the language server validates it. Human lines carry
 * their file; the JSON object lists every file's diagnostics, each with its `file`. A file that
 * cannot be read or is not IQE text is one stderr line. Exit 2 when some file could not be
 * checked, else 1 when any error is reported, else 0.
 */
export function runCheck(args: string[]): number {
  const json = args.includes('--json');
  const files = args.filter((a) => a !== '--json');
  const unknown = files.find((a) => a.startsWith('-'));
  if (unknown !== undefined || files.length === 0) {
    process.stderr.write(unknown !== undefined ? `check: unknown option '${unknown}'\n` : 'usage: iqm-tools check FILE.iqe ... [--json]\n');
    return 2;
  }
  let unchecked = false;
  let errors = false;
  const all: { file: string; diagnostic: IqeDiagnostic }[] = [];
  for (const file of files) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(file);
    } catch (error) {
      process.stderr.write(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
      unchecked = true;
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
    const diagnostics = format === 'iqe' || format === 'unknown' ? validateIqe(text, { maxProblems: Number.MAX_SAFE_INTEGER }) : readSourceText(text, file, siblingReader(file)).diagnostics;
    if (diagnostics.some((d) => d.severity === 'error')) errors = true;
    if (json) {
      for (const diagnostic of diagnostics) all.push({ file, diagnostic });
    } else if (diagnostics.length > 0) {
      // Each file's lines as they are found: a long list of files shows progress.
      process.stdout.write(diagnostics.map((d) => formatDiagnostic(file, d)).join('\n') + '\n');
    }
  }
  if (json) process.stdout.write(JSON.stringify({ diagnostics: all.map(({ file, diagnostic }) => fileDiagnosticToJson(file, diagnostic)) }) + '\n');
  return unchecked ? 2 : errors ? 1 : 0;
}
