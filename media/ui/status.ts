// The status over the view: a passing message (loading, a lost WebGL context), or the error view
// that stands in for the model (a file that cannot be previewed, with the byte offset where reading
// stopped or a link to the IQE text's line). It only draws; the coordinator decides when.

import type { SourceProblem } from '../../core/protocol';
import { clear, h } from './dom';

export class StatusView {
  readonly el: HTMLElement = h('div', { id: 'status', class: 'status', text: 'Loading…' });

  /** A message (hidden when empty); an 'error' one is shown as the error view is. */
  show(text: string, kind: 'ok' | 'error'): void {
    clear(this.el);
    this.el.className = kind === 'error' ? 'status error-view' : 'status';
    if (text) this.el.append(h('p', { text }));
    this.el.classList.toggle('hidden', !text);
  }

  /** The error view: a title, the message (ids the tests read), and what follows from it. */
  error(title: string, message: string, offset: number | null, link: HTMLElement | null): void {
    this.errorView(title, h('p', { id: 'error-message', text: message }));
    if (offset !== null) this.el.append(h('p', { id: 'error-offset', text: `at byte ${offset} (0x${offset.toString(16)})` }));
    if (link) this.el.append(h('p', null, link));
    this.el.append(h('p', { class: 'dim', text: link ? 'The preview follows the text as you edit it.' : 'The preview reloads when the file changes on disk.' }));
  }

  /** No WebGL2: said over the view, while the info panel still describes the file. */
  noWebGl(reason: string, fileName: string): void {
    this.errorView('WebGL2 is not available', h('p', { text: `${reason} The info panel still describes ${fileName}.` }));
  }

  private errorView(title: string, message: HTMLElement): void {
    clear(this.el);
    this.el.className = 'status error-view';
    this.el.append(h('h2', { text: title }), message);
  }
}

/** A link that shows the IQE text at the problem's line (`open` asks the host). */
export function sourceLink(problem: SourceProblem, open: (line: number, column: number) => void): HTMLElement {
  const a = h('a', { href: '#', class: 'source-link', text: `Go to line ${problem.line + 1}, column ${problem.column + 1}` });
  a.addEventListener('click', (e) => {
    e.preventDefault();
    open(problem.line, problem.column);
  });
  return a;
}
