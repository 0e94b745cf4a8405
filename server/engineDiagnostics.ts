// `iqmTools.engine`: the chosen engines' findings on an IQE document (core/engines), as IQE
// diagnostics at the line the finding names. Unknown engine names are one warning on line 1.

import { checkEngine } from '../core/engines/check';
import { parseEngineList } from '../core/engines/index';
import { factsFromIqe } from '../core/engines/iqe';
import { findingSentence } from '../core/engines/report';
import type { IqeDiagnostic } from '../core/iqe/diagnostic';
import type { IqeDocument } from '../core/iqe/document';
import { lineText } from '../core/iqe/navigation';
import type { Settings } from './settings';

export function engineDiagnostics(doc: IqeDocument, settings: Settings): IqeDiagnostic[] {
  if (settings.engines.length === 0) return [];
  const { engines, unknown } = parseEngineList(settings.engines);
  const out: IqeDiagnostic[] = [];
  if (unknown.length > 0) {
    out.push({ range: { line: 0, column: 0, endLine: 0, endColumn: 0 }, severity: 'warning', code: 'engine-unknown', message: `iqmTools.engine: unknown engine ${unknown.map((u) => `"${u}"`).join(', ')}` });
  }
  if (engines.length === 0) return out;
  const facts = factsFromIqe(doc);
  const ignore = new Set(settings.ignore);
  for (const engine of engines) {
    for (const f of checkEngine(facts, engine)) {
      if (ignore.has(f.code)) continue;
      const line = f.location.line ?? 0;
      out.push({
        range: { line, column: 0, endLine: line, endColumn: lineText(doc, line).length },
        severity: settings.severity[f.code] ?? f.severity,
        code: f.code,
        message: findingSentence(f, false),
      });
    }
  }
  return out;
}
