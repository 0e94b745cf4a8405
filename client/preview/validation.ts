// The validator's report on a binary model open in the preview (core/validate; read in
// core/host/modelRead.ts) as Problems-panel entries, and `iqmTools.validation.severities`, read
// with the parser `iqm-tools check --config` uses, so a code's severity is the same in both.

import * as vscode from 'vscode';
import type { Severity } from '../../core/iqe/diagnostic';
import { codeSectionLines } from '../../core/validate/docSections';
import { parseSeverityOverrides, type SeverityOverrides, type ValidationReport } from '../../core/validate/report';

/** The `source` of the validator's entries in the Problems panel. */
export const VALIDATION_SOURCE = 'iqm-tools validate';

/** The page of the codes, packaged with the extension (.vscodeignore): one section per code. */
export const VALIDATION_DOC = 'docs/VALIDATION.md';

/** Per code, the link to its section of the packaged VALIDATION.md. */
export type ValidationDocLinks = ReadonlyMap<string, vscode.Uri>;

let docLinks: Promise<ValidationDocLinks> | undefined;

/**
 * The Problems entries' code links: the extension's own docs/VALIDATION.md with a `#L<line>`
 * fragment at the code's section heading (VS Code opens a file link at that line). Read once, with
 * workspace.fs so both hosts read it; when it cannot be read the entries keep a plain code (logged).
 */
export function validationDocLinks(extensionUri: vscode.Uri, log: (message: string) => void): Promise<ValidationDocLinks> {
  return (docLinks ??= (async () => {
    const doc = vscode.Uri.joinPath(extensionUri, VALIDATION_DOC);
    try {
      const lines = codeSectionLines(new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(doc)));
      return new Map([...lines].map(([code, line]) => [code, doc.with({ fragment: `L${line}` })]));
    } catch (e) {
      log(`validation: ${doc.toString()} could not be read, so the Problems entries have no link to their code's section: ${e instanceof Error ? e.message : String(e)}`);
      return new Map<string, vscode.Uri>();
    }
  })());
}

/** The entry's code, a link to its section where the doc has one. */
function codeOf(code: string, links: ValidationDocLinks): vscode.Diagnostic['code'] {
  const target = links.get(code);
  return target ? { value: code, target } : code;
}

/** The severities set for this file (resource scope); `log` takes what is wrong with the setting. */
export function validationOverrides(uri: vscode.Uri, log: (message: string) => void): SeverityOverrides {
  const value = vscode.workspace.getConfiguration('iqmTools', uri).get<unknown>('validation.severities') ?? {};
  const { overrides, errors } = parseSeverityOverrides({ codes: value });
  for (const e of errors) log(`iqmTools.validation.severities: ${e}`);
  return overrides;
}

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/**
 * Problems-panel entries for the report: a binary file has no text, so each is on line 0 and its
 * message says the byte offset (and where, when the message does not start with it). A code with
 * more issues than the report keeps adds one entry that counts them. Each entry's code links to
 * its section of the packaged VALIDATION.md (`links`).
 */
export function validationDiagnostics(report: ValidationReport, links: ValidationDocLinks = new Map()): vscode.Diagnostic[] {
  const at = new vscode.Range(0, 0, 0, 0);
  const entries = report.issues.map((issue) => {
    const text = issue.message.startsWith(issue.where) ? `byte ${issue.offset}, ${issue.message}` : `${issue.where}, byte ${issue.offset}: ${issue.message}`;
    const d = new vscode.Diagnostic(at, text, SEVERITY[issue.severity]);
    d.code = codeOf(issue.code, links);
    d.source = VALIDATION_SOURCE;
    return d;
  });
  for (const [code, count] of Object.entries(report.omitted)) {
    const kept = report.issues.find((i) => i.code === code);
    const d = new vscode.Diagnostic(at, `… and ${count} more of this problem`, SEVERITY[kept?.severity ?? 'information']);
    d.code = codeOf(code, links);
    d.source = VALIDATION_SOURCE;
    entries.push(d);
  }
  return entries;
}
