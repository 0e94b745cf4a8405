// Comparisons of two previews side by side: "Compare with…" (compare/command.ts) and the source
// control's "Open Changes" on a model file, which VS Code shows as a diff editor holding one custom
// editor per side (each resolved on its own, the original side on a `git:` URI). Previews register
// here; two that belong together are paired, get the semantic differences of `iqm-tools diff`
// (core/compare/diff.ts), and each forwards its camera and clip to the other.
import * as vscode from 'vscode';
import { fileNameOf } from '../../core/paths';
import type { Sidecars } from '../../core/protocol';
import type { Difference } from '../../core/compare/diff';
import type { LinkToWebview, SharedView } from '../../core/viewLink';
import { comparisonResult, type ComparedSide } from '../../core/host/comparison';

/** What a preview gives a comparison. */
export interface ComparablePreview {
  readonly uri: vscode.Uri;
  /** The model as last loaded (an IQE's: the IQM compiled from it), or null before the first load. */
  model(): Uint8Array | null;
  /** The sidecars that load used (they decide the clips the preview plays), or null before the first load. */
  sidecars(): Sidecars | null;
  /** Why the last load drew no model (it could not be read or compiled), or null. */
  problem(): string | null;
  /** Whether its editor is shown (status, for tests). */
  readonly visible: boolean;
  post(message: LinkToWebview): void;
}

interface Pairing {
  other: ComparablePreview;
  side: 'left' | 'right';
  /** Shared by both sides' pairings: the view last sent by either side. */
  shared: { view: SharedView | null };
}

/** What the status command reports of a comparison (tests). */
export interface ComparisonStatus {
  left: string;
  right: string;
  /** Whether each side's editor is shown. */
  leftVisible: boolean;
  rightVisible: boolean;
  differences: Difference[] | null;
  error: string | null;
}

const key = (uri: vscode.Uri): string => uri.toString();

/** A display name: the file name, and for a source control side its ref (`model.iqm (HEAD)`). */
export function displayName(uri: vscode.Uri): string {
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  if (uri.scheme === 'file') return name;
  try {
    const ref = (JSON.parse(uri.query) as { ref?: unknown }).ref;
    if (typeof ref === 'string') return `${name} (${ref === '~' ? 'index' : ref || 'working tree'})`;
  } catch {
    // Not a git URI's JSON query.
  }
  return `${name} (${uri.scheme})`;
}

export class Comparisons implements vscode.Disposable {
  private readonly previews = new Set<ComparablePreview>();
  private readonly pairs = new Map<ComparablePreview, Pairing>();
  /** Pairs the compare command opened, not yet resolved: [left, right]. */
  private expected: [string, string][] = [];
  private readonly results = new Map<ComparablePreview, { differences: Difference[] | null; error: string | null }>();

  /** The compare command is about to open these two: pair them when both have resolved. */
  expect(left: vscode.Uri, right: vscode.Uri): void {
    this.expected.push([key(left), key(right)]);
  }

  add(preview: ComparablePreview): void {
    this.previews.add(preview);
    const found = this.findPartner(preview);
    if (!found) return;
    const shared: Pairing['shared'] = { view: null };
    this.pairs.set(preview, { other: found.other, side: found.side, shared });
    this.pairs.set(found.other, { other: preview, side: found.side === 'left' ? 'right' : 'left', shared });
    this.compare(preview);
  }

  remove(preview: ComparablePreview): void {
    this.previews.delete(preview);
    const pairing = this.pairs.get(preview);
    this.pairs.delete(preview);
    this.results.delete(preview);
    if (!pairing) return;
    this.pairs.delete(pairing.other);
    this.results.delete(pairing.other);
    pairing.other.post({ type: 'comparisonEnded' });
  }

  /** A preview's load ended, with a model or with a problem (problem()): the comparison is made again. */
  loaded(preview: ComparablePreview): void {
    if (this.pairs.has(preview)) this.compare(preview);
  }

  /** A side's camera, clip or playback changed: the other follows. */
  viewChanged(preview: ComparablePreview, view: SharedView): void {
    const pairing = this.pairs.get(preview);
    if (!pairing) return;
    pairing.shared.view = view;
    pairing.other.post({ type: 'syncView', view });
  }

  isCompared(preview: ComparablePreview): boolean {
    return this.pairs.has(preview);
  }

  status(): ComparisonStatus[] {
    const out: ComparisonStatus[] = [];
    for (const [preview, pairing] of this.pairs) {
      if (pairing.side !== 'left') continue;
      const result = this.results.get(preview) ?? { differences: null, error: null };
      out.push({ left: key(preview.uri), right: key(pairing.other.uri), leftVisible: preview.visible, rightVisible: pairing.other.visible, ...result });
    }
    return out;
  }

  dispose(): void {
    this.previews.clear();
    this.pairs.clear();
  }

  /**
   * The preview this one is compared with, if it is open: a pair the compare command opened; for a
   * source control side (`git:` and the like, which VS Code's diff shows left of the file), the
   * open, unpaired preview of the same path; or the other side of a diff tab whose label names both.
   */
  private findPartner(preview: ComparablePreview): Omit<Pairing, 'shared'> | null {
    const me = key(preview.uri);
    // The most recent first: the file may also be open in a tab of its own, opened before the comparison.
    const open = (uri: string): ComparablePreview | undefined =>
      [...this.previews].reverse().find((p) => p !== preview && key(p.uri) === uri && !this.pairs.has(p));
    for (let i = 0; i < this.expected.length; i++) {
      const [left, right] = this.expected[i];
      const other = me === left ? open(right) : me === right ? open(left) : undefined;
      if (other) {
        this.expected.splice(i, 1);
        return { other, side: me === left ? 'left' : 'right' };
      }
    }
    // A source control side first: its tab's label names the same file twice ("model.iqm ↔
    // model.iqm" for "Open Changes"), so the label cannot tell the sides apart.
    const versioned = (uri: vscode.Uri) => uri.scheme !== 'file' && uri.scheme !== 'vscode-remote' && uri.scheme !== 'vscode-vfs' && uri.query !== '';
    const samePath = [...this.previews].filter((p) => p !== preview && p.uri.path === preview.uri.path && !this.pairs.has(p) && versioned(p.uri) !== versioned(preview.uri));
    const other = samePath[samePath.length - 1];
    if (other) return { other, side: versioned(preview.uri) ? 'left' : 'right' };
    // A diff editor of two custom editors has no tab input the API describes (only text and
    // notebook diffs have one); its label is "left ↔ right" (names, maybe with a description).
    const name = (uri: vscode.Uri) => uri.path.slice(uri.path.lastIndexOf('/') + 1);
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      const sides = tab.label.split(' ↔ ');
      if (sides.length !== 2 || tab.input instanceof vscode.TabInputText || tab.input instanceof vscode.TabInputCustom) continue;
      const at = sides.findIndex((side) => side.startsWith(name(preview.uri)));
      if (at < 0) continue;
      const others = [...this.previews].filter((p) => p !== preview && !this.pairs.has(p) && sides[1 - at].startsWith(name(p.uri)) && key(p.uri) !== me);
      if (others.length > 0) return { other: others[others.length - 1], side: at === 0 ? 'left' : 'right' };
    }
    return null;
  }

  /** The differences of a pair, to both sides (the left file is the first of `iqm-tools diff`). */
  private compare(preview: ComparablePreview): void {
    const pairing = this.pairs.get(preview);
    if (!pairing) return;
    const [left, right] = pairing.side === 'left' ? [preview, pairing.other] : [pairing.other, preview];
    const result = comparisonResult(side(left), side(right));
    this.results.set(left, result);
    const view = pairing.shared.view;
    left.post({ type: 'comparison', side: 'left', other: displayName(right.uri), ...result, view });
    right.post({ type: 'comparison', side: 'right', other: displayName(left.uri), ...result, view });
  }
}

/** A preview as comparisonResult (comparison.ts) takes it. */
function side(preview: ComparablePreview): ComparedSide {
  return { name: displayName(preview.uri), fileName: fileNameOf(preview.uri.path), model: preview.model(), sidecars: preview.sidecars(), problem: preview.problem() };
}
