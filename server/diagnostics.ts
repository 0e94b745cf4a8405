// Core diagnostics -> LSP diagnostics. Ranges, severities and related locations translate one to
// one; the core's positions already use the LSP convention (0-based lines, UTF-16 columns).
import { DiagnosticSeverity, type Diagnostic, type Range as LspRange } from 'vscode-languageserver';
import type { IqeDiagnostic, Range, Severity } from '../core/iqe/diagnostic';

export const SOURCE = 'iqe';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

function toLspRange(range: Range): LspRange {
  return {
    start: { line: range.line, character: range.column },
    end: { line: range.endLine, character: range.endColumn },
  };
}

/** `toUri`: the URI of a related location's `path` in another file (MODELDEF includes); without it those are left out. */
export function toLspDiagnostic(uri: string, diagnostic: IqeDiagnostic, source = SOURCE, toUri?: (path: string) => string): Diagnostic {
  const result: Diagnostic = {
    range: toLspRange(diagnostic.range),
    severity: SEVERITY[diagnostic.severity] ?? DiagnosticSeverity.Error,
    code: diagnostic.code,
    source,
    message: diagnostic.message,
  };
  const related = diagnostic.related?.filter((r) => r.path === undefined || toUri !== undefined);
  if (related && related.length > 0) {
    result.relatedInformation = related.map((r) => ({
      location: { uri: r.path !== undefined && toUri ? toUri(r.path) : uri, range: toLspRange(r.range) },
      message: r.message,
    }));
  }
  return result;
}

export function toLspDiagnostics(uri: string, diagnostics: readonly IqeDiagnostic[], source = SOURCE, toUri?: (path: string) => string): Diagnostic[] {
  const result = new Array<Diagnostic>(diagnostics.length);
  for (let i = 0; i < diagnostics.length; i++) result[i] = toLspDiagnostic(uri, diagnostics[i], source, toUri);
  return result;
}

/** A diagnostic about the document as a whole (shown on its first character), e.g. `internal-error`. */
export function documentDiagnostic(code: string, message: string, severity: Severity = 'error'): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: SEVERITY[severity],
    code,
    source: SOURCE,
    message,
  };
}

export function internalErrorDiagnostic(error: unknown): Diagnostic {
  const reason = error instanceof Error ? error.message : String(error);
  return documentDiagnostic(
    'internal-error',
    `The IQE language server failed to validate this document (${reason}). Details are in the "IQE Language Server" output.`,
  );
}
