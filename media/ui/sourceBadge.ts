// The badge over the view of an IQE preview: which text the drawn model was compiled from
// (version, unsaved), that a newer text is compiling, or that it has errors (with a link to the
// first one) while the last good model stays drawn.

import type { CompiledFrom, SourceProblem } from '../../core/protocol';
import { h } from './dom';
import { icon } from './toolbar';

/** 'the file' or 'version N'. */
function versionText(version: number | null): string {
  return version === null ? 'the file' : `version ${version}`;
}

export class SourceBadge {
  readonly el: HTMLElement = h('div', { id: 'source', class: 'badge hidden' });

  /** The drawn model's text (null: not an IQE preview: hidden). Sets the root's data attributes the tests read. */
  showCompiled(c: CompiledFrom | null, root: HTMLElement): void {
    const badge = this.el;
    badge.title = '';
    if (!c) {
      badge.className = 'badge hidden';
      return;
    }
    badge.className = c.unsaved ? 'badge unsaved' : 'badge';
    badge.replaceChildren(
      icon(c.unsaved ? 'circle-filled' : 'check'),
      h('span', { text: ` ${c.version === null ? 'file on disk' : `version ${c.version}`}${c.unsaved ? ', unsaved' : ''} · compiled in ${Math.round(c.milliseconds)} ms` }),
    );
    root.dataset.sourceVersion = c.version === null ? 'disk' : String(c.version);
    root.dataset.unsaved = String(c.unsaved);
  }

  compiling(version: number | null, shown: CompiledFrom): void {
    this.el.replaceChildren(icon('loading'), h('span', { text: ` compiling ${versionText(version)}… (showing ${versionText(shown.version)})` }));
    this.el.className = 'badge busy';
  }

  /** A newer text failed: says so beside the model still drawn; `link` shows the first error's line. */
  failed(version: number | null, unsaved: boolean, problem: SourceProblem | null, shown: CompiledFrom, text: string, link: HTMLElement | null): void {
    const p = problem;
    this.el.className = 'badge error';
    this.el.replaceChildren(
      icon('error'),
      h('span', { text: ` ${versionText(version)}${unsaved ? ' (unsaved)' : ''} has ${p ? p.count : 1} error${p && p.count > 1 ? 's' : ''}; showing ${versionText(shown.version)}. ` }),
      link ?? '',
    );
    this.el.title = text;
  }
}
