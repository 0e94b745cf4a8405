// The validator's entry: a binary model's bytes in, every problem out (report.ts). The format is
// the registry's (detectFormat), never sniffed here.

import { detectFormat } from '../formats/registry';
import { validateDpm } from './dpm';
import { validateIqm } from './iqm';
import { validateMd3 } from './md3';
import { Reporter, type SeverityOverrides, type ValidationReport } from './report';

export type ValidatedFormat = ValidationReport['format'];

/** The formats the validator reads, by the registry's id. */
export function validatorFor(format: string): ValidatedFormat | null {
  return format === 'iqm' || format === 'md3' || format === 'dpm' ? format : null;
}

/** Validates a binary model whose format the registry named; null when it is not one the validator reads. */
export function validateModel(bytes: Uint8Array, options: { overrides?: SeverityOverrides; keptPerCode?: number } = {}): ValidationReport | null {
  const format = validatorFor(detectFormat(bytes));
  if (!format) return null;
  const rep = new Reporter(options.overrides, options.keptPerCode);
  switch (format) {
    case 'iqm': validateIqm(bytes, rep); break;
    case 'md3': validateMd3(bytes, rep); break;
    case 'dpm': validateDpm(bytes, rep); break;
  }
  return rep.report(format);
}
