// A passing notice over the view, bottom right, that the user can close: what the preview did on
// its own (it stopped animating a model this machine draws too slowly). It only draws.

import { h } from './dom';
import { icon } from './toolbar';

export class Notice {
  readonly el: HTMLElement = h('div', { id: 'notice', class: 'notice hidden', role: 'status' });

  show(text: string): void {
    const close = h('button', { class: 'tool', title: 'Close', 'aria-label': 'Close' }, icon('close'));
    close.addEventListener('click', () => this.hide());
    this.el.replaceChildren(icon('warning'), h('span', { text: ` ${text}` }), close);
    this.el.classList.remove('hidden');
  }

  hide(): void {
    this.el.classList.add('hidden');
    this.el.replaceChildren();
  }

  get shown(): boolean {
    return !this.el.classList.contains('hidden');
  }
}
