// `iqm-tools check FILE.iqe [--json]` (CLI.md): the language server's validation, printed.
import { readFileSync } from 'node:fs';
import { validateIqe } from '../core/iqe/document';
import type { IqeDiagnostic } from '../core/iqe/diagnostic';
import { decodeText, notIqeText } from './text';

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

export function formatDiagnostic(file: string, d: IqeDiagnostic): string {
  return `${file}:${d.range.line + 1}:${d.range.column + 1}: ${d.severity}: ${d.message} [${d.code}]`;
}

export function runCheck(args: string[]): number {
  const json = args.includes('--json');
  const files = args.filter((a) => a !== '--json');
  const unknown = files.find((a) => a.startsWith('-'));
  if (unknown !== undefined || files.length !== 1) {
    process.stderr.write(unknown !== undefined ? `check: unknown option '${unknown}'\n` : 'usage: iqm-tools check FILE.iqe [--json]\n');
    return 2;
  }
  const file = files[0];
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    process.stderr.write(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
    return 2;
  }
  const other = notIqeText(bytes);
  if (other) {
    process.stderr.write(`${file}: ${other}\n`);
    return 2;
  }
  // The whole file, however large: the CLI has no problem limit unless the caller filters.
  const diagnostics = validateIqe(decodeText(bytes), { maxProblems: Number.MAX_SAFE_INTEGER });
  if (json) {
    process.stdout.write(JSON.stringify({ diagnostics: diagnostics.map(diagnosticToJson) }) + '\n');
  } else {
    const lines = diagnostics.map((d) => formatDiagnostic(file, d));
    if (lines.length > 0) process.stdout.write(lines.join('\n') + '\n');
  }
  return diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}
