// The preview's toolbar: one row of codicon buttons in VS Code's own look (toggles pressed like the
// find widget's options), and a "more" menu that holds the secondary actions and every button the
// row has no room for, so the row never wraps however narrow the editor is.

import { h } from './dom';

export interface ToolItem {
  id: string;
  /** A codicon name (https://microsoft.github.io/vscode-codicons/). */
  icon: string;
  label: string;
  title: string;
  /** A toggle shows its state (aria-pressed); an action does not. */
  toggle: boolean;
  run(): void;
}

interface Entry {
  item: ToolItem;
  button: HTMLButtonElement;
  /** Its row in the menu (shown there when the row has no room for the button). */
  row: HTMLButtonElement;
  on: boolean;
  disabled: boolean;
  hidden: boolean;
}

export function icon(name: string): HTMLElement {
  return h('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}

export class Toolbar {
  readonly el: HTMLElement;
  private readonly row: HTMLElement;
  private readonly moreButton: HTMLButtonElement;
  readonly menu: HTMLElement;
  private readonly overflowSection: HTMLElement;
  /** Always in the menu: actions and settings that are not used every minute. */
  readonly menuBody: HTMLElement;
  private readonly entries: Entry[] = [];

  constructor() {
    this.row = h('div', { class: 'tool-row', role: 'toolbar', 'aria-label': 'Preview' });
    this.moreButton = h('button', { id: 'more', class: 'tool', title: 'More actions', 'aria-haspopup': 'menu', 'aria-expanded': 'false' }, icon('ellipsis'));
    this.overflowSection = h('div', { class: 'menu-section' });
    this.menuBody = h('div', { class: 'menu-section' });
    this.menu = h('div', { id: 'menu', class: 'menu hidden', role: 'menu' }, this.overflowSection, this.menuBody);
    this.el = h('div', { class: 'toolbar' }, this.row, this.moreButton, this.menu);
    this.moreButton.addEventListener('click', (e) => {
      e.stopPropagation();
      this.showMenu(this.menu.classList.contains('hidden'));
    });
    document.addEventListener('click', (e) => {
      if (!this.menu.contains(e.target as Node)) this.showMenu(false);
    });
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.showMenu(false);
    });
  }

  showMenu(open: boolean): void {
    this.menu.classList.toggle('hidden', !open);
    this.moreButton.setAttribute('aria-expanded', String(open));
  }

  add(item: ToolItem): HTMLButtonElement {
    const button = h('button', { class: 'tool', id: `tool-${item.id}`, 'data-toggle': item.id, title: item.title, 'aria-label': item.label }, icon(item.icon));
    if (item.toggle) button.setAttribute('aria-pressed', 'false');
    const row = h('button', { class: 'menu-item hidden', role: item.toggle ? 'menuitemcheckbox' : 'menuitem', 'data-menu': item.id, title: item.title }, icon(item.icon), h('span', { text: item.label }), h('span', { class: 'codicon codicon-check check' }));
    button.addEventListener('click', () => item.run());
    row.addEventListener('click', (e) => {
      e.stopPropagation();
      item.run();
    });
    this.row.append(button);
    this.overflowSection.append(row);
    this.entries.push({ item, button, row, on: false, disabled: false, hidden: false });
    return button;
  }

  /** A row of the menu's lasting part (an action, or a toggle with a check mark). */
  addMenuItem(item: ToolItem): HTMLButtonElement {
    const row = h('button', { class: 'menu-item', id: `menu-${item.id}`, role: item.toggle ? 'menuitemcheckbox' : 'menuitem', title: item.title }, icon(item.icon), h('span', { text: item.label }), h('span', { class: 'codicon codicon-check check' }));
    row.addEventListener('click', (e) => {
      e.stopPropagation();
      item.run();
      if (!item.toggle) this.showMenu(false);
    });
    this.menuBody.append(row);
    return row;
  }

  set(id: string, on: boolean, disabled = false, hidden = false): void {
    const e = this.entries.find((x) => x.item.id === id);
    if (!e) return;
    e.on = on;
    e.disabled = disabled;
    e.hidden = hidden;
    for (const b of [e.button, e.row]) {
      b.disabled = disabled;
      b.classList.toggle('on', on && e.item.toggle);
      if (e.item.toggle) b.setAttribute(b === e.button ? 'aria-pressed' : 'aria-checked', String(on));
    }
    e.button.title = disabled ? `${e.item.title} (this model has none)` : e.item.title;
    e.button.classList.toggle('hidden', hidden);
  }

  /** Puts the buttons that do not fit on the row into the menu (call on resize). */
  layout(): void {
    const available = this.el.parentElement ? this.el.parentElement.clientWidth - 12 : Infinity;
    const more = 30;
    let used = 0;
    for (const e of this.entries) {
      e.button.classList.remove('overflowed');
      e.row.classList.add('hidden');
    }
    for (const e of this.entries) {
      if (e.hidden) continue;
      used += e.button.offsetWidth + 2;
      if (used + more > available) {
        e.button.classList.add('overflowed');
        e.row.classList.remove('hidden');
      }
    }
    this.el.dataset.overflow = String(this.entries.filter((e) => e.button.classList.contains('overflowed')).length);
  }
}
