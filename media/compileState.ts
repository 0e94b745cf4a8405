// An IQE preview's compile state: which text the drawn model is compiled from, and what the host
// says of newer ones (compiling, failed, saved). With a model drawn, the badge over the view
// (ui/sourceBadge.ts) says so and the last good model stays; a text that fails with no model drawn
// is handed back to the coordinator, which shows it as the error view (with a link to its line).

import type { CompiledFrom, CompileStateMessage, SourceProblem } from '../core/protocol';
import { SourceBadge } from './ui/sourceBadge';
import { sourceLink } from './ui/status';

/** A failure with nothing to keep drawn: the coordinator's error view shows it. */
export interface CompileFailure {
  message: string;
  problem: SourceProblem | null;
}

export class CompileState {
  /** The text the drawn model is compiled from, or null (not an IQE preview). */
  compiled: CompiledFrom | null = null;
  readonly badge = new SourceBadge();

  /** `openSource` asks the host to show the IQE text at a line. */
  constructor(
    private readonly root: HTMLElement,
    private readonly openSource: (line: number, column: number) => void,
  ) {}

  /** A model was loaded (`compiled`: from which IQE text, or null). */
  loaded(compiled: CompiledFrom | null): void {
    this.compiled = compiled;
    if (compiled) this.root.dataset.sourceMap = '';
    delete this.root.dataset.compile;
    this.badge.showCompiled(compiled, this.root);
  }

  /**
   * The host's news of a newer text. Returns the failure to show as the error view when there is
   * no compiled model drawn (`drawn` false, or not an IQE preview), else null.
   */
  apply(m: CompileStateMessage, drawn: boolean): CompileFailure | null {
    if (m.state === 'saved') {
      if (this.compiled && this.compiled.version === m.version) this.compiled.unsaved = false;
      if (this.root.dataset.compile !== 'failed') this.badge.showCompiled(this.compiled, this.root);
      return null;
    }
    this.root.dataset.compile = m.state;
    if (m.state === 'compiling') {
      if (this.compiled) this.badge.compiling(m.version, this.compiled);
      return null;
    }
    const p = m.problem;
    const text = p ? `IQE line ${p.line + 1}: ${p.message}${p.count > 1 ? ` (and ${p.count - 1} more errors)` : ''}` : 'the IQE text could not be compiled';
    if (!this.compiled || !drawn) return { message: text, problem: p };
    this.badge.failed(m.version, m.unsaved, p, this.compiled, text, p ? this.link(p) : null);
    return null;
  }

  /** A link that shows the IQE text at the problem's line. */
  link(problem: SourceProblem): HTMLElement {
    return sourceLink(problem, this.openSource);
  }
}
