// The "mesh from…" picker over the view: for an animation file, the models of its folder with a
// matching skeleton (the mesh it plays on); for a mesh, the animation files whose clips it can
// play. Shown only where there is something to pick (or, for an animation file, to say that no
// model of the folder fits).

import type { PartnerOffer } from '../../core/protocol';
import { clear, h } from './dom';
import { icon } from './toolbar';

export class PartnerPicker {
  readonly el: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly label: HTMLElement;

  /** `choose('')`: none. */
  constructor(choose: (name: string) => void) {
    this.select = h('select', { id: 'partner-select' });
    this.label = h('span', { class: 'partner-label' });
    this.el = h('label', { id: 'partner', class: 'partner hidden' }, icon('references'), this.label, this.select);
    this.select.addEventListener('change', () => choose(this.select.value));
  }

  show(offer: PartnerOffer | undefined): void {
    clear(this.select);
    if (!offer) {
      this.el.classList.add('hidden');
      return;
    }
    const mesh = offer.role === 'mesh';
    this.label.textContent = mesh ? 'Mesh from' : 'Clips from';
    this.el.title = mesh
      ? 'A model of this folder with the same skeleton (joint names, or as many joints as this file has poses) to play these animations on'
      : 'An animation file of this folder with the same skeleton, whose clips this model plays (as engines load them together)';
    const none = mesh ? (offer.matches.length ? 'none (skeleton only)' : 'no model of the folder fits') : 'its own clips';
    this.select.append(h('option', { value: '', text: none }));
    for (const m of offer.matches) this.select.append(h('option', { value: m, text: offer.automatic && offer.chosen?.name === m ? `${m} (the only fit)` : m }));
    this.select.value = offer.chosen?.name ?? '';
    this.select.disabled = offer.matches.length === 0;
    this.el.classList.remove('hidden');
  }
}
