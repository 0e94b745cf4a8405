// The info panel's sections of the preview as a place to work: the clicked triangle (its mesh,
// material, index and corners, and for an IQE the lines they come from), and a comparison (the
// other file and the semantic differences of `iqm-tools diff`). Kept apart from ui/info.ts, which
// describes the file and is rebuilt on every load; the viewer puts these two at its top.

import type { Picked } from '../../core/model/pick';
import type { ComparisonMessage, PickedSourceMessage } from '../../core/viewLink';
import type { Scene } from '../scene';
import { clear, h } from './dom';

export class WorkPanel {
  readonly pick = h('div', { id: 'pick-info', class: 'section work hidden' });
  readonly compare = h('div', { id: 'compare', class: 'section work hidden' });
  private picked: Picked | null = null;

  /** The two sections, to put at the top of the info panel after it is rebuilt. */
  attach(info: HTMLElement): void {
    info.prepend(this.compare, this.pick);
  }

  showPick(picked: Picked | null, scene: Scene): void {
    this.picked = picked;
    clear(this.pick);
    this.pick.classList.toggle('hidden', !picked);
    if (!picked) return;
    const mesh = scene.model.meshes[picked.mesh];
    this.pick.append(
      h('h3', { text: 'Clicked' }),
      h('p', { text: `triangle ${picked.modelTriangle} (${picked.triangle} of mesh ${picked.mesh} '${mesh?.name ?? ''}', material '${mesh?.material ?? ''}')` }),
      h('p', { text: `vertices ${picked.vertices.join(', ')}` }),
    );
  }

  /** An IQE preview: the source lines of the clicked triangle (1-based, as the editor shows them). */
  showPickSource(m: PickedSourceMessage): void {
    if (!this.picked || this.picked.modelTriangle !== m.triangle) return;
    const line = (l: number) => (l >= 0 ? String(l + 1) : '?');
    this.pick.append(
      h('p', { class: 'source-lines', text: `${m.face >= 0 ? `face on line ${line(m.face)}` : 'no face line'}; vp on lines ${m.vertices.map(line).join(', ')}` }),
    );
  }

  showComparison(m: ComparisonMessage): void {
    clear(this.compare);
    this.compare.classList.remove('hidden');
    const list = h('ol', { id: 'compare-list', 'data-state': m.error ? 'error' : m.differences ? 'done' : 'computing' });
    let heading: string;
    if (m.error) heading = `Compared with ${m.other}: ${m.error}`;
    else if (!m.differences) heading = `Comparing with ${m.other}…`;
    else if (m.differences.length === 0) heading = `Compared with ${m.other}: no semantic differences`;
    else heading = `Compared with ${m.other}: ${m.differences.length} difference${m.differences.length === 1 ? '' : 's'}`;
    for (const d of m.differences ?? []) list.append(h('li', { text: `${d.section}: ${d.message}` }));
    this.compare.append(h('h3', { text: heading }), list);
  }

  endComparison(): void {
    clear(this.compare);
    this.compare.classList.add('hidden');
  }
}
