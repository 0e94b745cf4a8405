// The diagnostic codes of IQE-SEMANTICS.md §9.2 (plus a few of ours), their numeric ids for the
// compact problem lists, and their default severities. Codes are a contract: keep them stable.
import type { Severity } from './diagnostic';

export const CODES = [
  // errors
  'header', 'face-index-range', 'attribute-count', 'vx-mixed-forms', 'joint-parent', 'blend-joint-range',
  'frame-pose-count', 'pm-degenerate', 'quaternion-zero', 'number-invalid',
  // warnings
  'face-index-clamped', 'face-index-mesh', 'face-too-few-indices', 'repeated-section', 'degenerate-triangle',
  'line-too-long', 'unknown-command', 'unterminated-quote', 'quaternion-not-unit', 'pm-not-orthogonal',
  'vertexarray-format', 'vx-w', 'base-pose-missing', 'animation-empty', 'animation-command-outside',
  'comment-trailing-text', 'weights-invalid', 'fs-count', 'no-faces', 'value-missing',
  // information
  'polygon-triangulated', 'blend-influences', 'unreferenced-vertex', 'reference-smoothing', 'reference-vx',
  'comment-swallows', 'joint-parent-negative', 'engine-compat', 'too-many-problems',
] as const;

export type Code = (typeof CODES)[number];

const ERRORS = new Set<Code>([
  'header', 'face-index-range', 'attribute-count', 'vx-mixed-forms', 'joint-parent', 'blend-joint-range',
  'frame-pose-count', 'pm-degenerate', 'quaternion-zero', 'number-invalid',
]);
const INFORMATION = new Set<Code>([
  'polygon-triangulated', 'blend-influences', 'unreferenced-vertex', 'reference-smoothing', 'reference-vx',
  'comment-swallows', 'joint-parent-negative', 'engine-compat', 'too-many-problems',
]);

export function defaultSeverity(code: Code): Severity {
  if (ERRORS.has(code)) return 'error';
  if (INFORMATION.has(code)) return 'information';
  return 'warning';
}

/** Numeric id of each code (its index in CODES); line-local problems are bits of a 64-bit pair of flags. */
export const CodeId = Object.fromEntries(CODES.map((c, i) => [c, i])) as { readonly [K in Code]: number };
