// The preview's own toolbar: the overlay toggles, player assembly, framing and the info panel on
// the row; camera presets, view settings, background, skin, export and conversion in the "more"
// menu. It shows the view state and reports the user's actions; the coordinator decides.

import type { ViewState } from '../../core/viewState';
import type { CameraView } from '../renderer/camera';
import { clear, h } from './dom';
import { icon, Toolbar } from './toolbar';

export type Toggle = 'textures' | 'colors' | 'wireframe' | 'skeleton' | 'tags' | 'bounds' | 'normals' | 'grid' | 'weights' | 'cull';
/** Boolean view settings of the menu. */
export type MenuFlag = 'ortho' | 'autoRotate' | 'follow' | 'lit';

const TOGGLES: { key: Toggle; icon: string; label: string; title: string }[] = [
  { key: 'textures', icon: 'file-media', label: 'Textures', title: 'Textures (a checker where none was found)' },
  { key: 'colors', icon: 'symbol-color', label: 'Vertex colours', title: 'Vertex colours (multiplied with the texture)' },
  { key: 'wireframe', icon: 'globe', label: 'Wireframe', title: 'Wireframe' },
  { key: 'skeleton', icon: 'type-hierarchy', label: 'Bones', title: 'Skeleton (hover for names, click to select)' },
  { key: 'tags', icon: 'tag', label: 'Tags', title: 'MD3 tags as axes' },
  { key: 'bounds', icon: 'screen-full', label: 'Bounds', title: "The file's per-frame bounds" },
  { key: 'normals', icon: 'arrow-up', label: 'Normals', title: 'Vertex normals' },
  { key: 'weights', icon: 'flame', label: 'Weights', title: 'Weight heat map of the selected joint; vertices no joint moves in magenta' },
  { key: 'grid', icon: 'table', label: 'Grid', title: 'Grid and axes (X red, Y green, Z blue; Z up)' },
  { key: 'cull', icon: 'eye-closed', label: 'Back-face culling', title: "Back-face culling with the format's winding" },
];

export interface ToolbarActions {
  toggle(key: Toggle): void;
  toggleAssembly(): void;
  frameView(view: CameraView): void;
  togglePanel(): void;
  flip(key: MenuFlag): void;
  toggleWinding(): void;
  exportImage(): void;
  convertToIqe(): void;
  exportGltf(): void;
  /** '' for the editor theme's background, else #rrggbb. */
  setBackground(colour: string): void;
  /** '' for the engines' choice, else a .skin file name. */
  setSkin(name: string): void;
}

/** What the model offers, for enabling the toggles. */
export interface ToolbarFacts {
  tags: boolean;
  colors: boolean;
  skinned: boolean;
  bounds: boolean;
  /** A Quake 3 player part with the other two beside it. */
  canAssemble: boolean;
  assembled: boolean;
}

export class ViewToolbar {
  private readonly toolbar = new Toolbar();
  private readonly menuRows = new Map<string, HTMLButtonElement>();
  private readonly skinSelect: HTMLSelectElement;
  private readonly backgroundInput: HTMLInputElement;

  constructor(actions: ToolbarActions) {
    const bar = this.toolbar;
    for (const t of TOGGLES) bar.add({ id: t.key, icon: t.icon, label: t.label, title: t.title, toggle: true, run: () => actions.toggle(t.key) });
    bar.add({
      id: 'player', icon: 'person', label: 'Assemble player', toggle: true,
      title: 'Assemble the Quake 3 player (lower, upper, head through tag_torso and tag_head)',
      run: () => actions.toggleAssembly(),
    });
    bar.add({ id: 'fit', icon: 'screen-normal', label: 'Frame the model', title: 'Frame the model (over the whole clip)', toggle: false, run: () => actions.frameView('default') });
    bar.add({ id: 'info', icon: 'layout-sidebar-right', label: 'Info panel', title: 'Show or hide the info panel', toggle: true, run: () => actions.togglePanel() });
    const menuToggle = (id: string, iconName: string, label: string, title: string, run: () => void) => {
      this.menuRows.set(id, bar.addMenuItem({ id, icon: iconName, label, title, toggle: true, run }));
    };
    const menuAction = (id: string, iconName: string, label: string, title: string, run: () => void) => {
      bar.addMenuItem({ id, icon: iconName, label, title, toggle: false, run });
    };
    menuAction('view-front', 'arrow-right', 'Front view', 'Look at the model\'s front', () => actions.frameView('front'));
    menuAction('view-side', 'arrow-swap', 'Side view', 'Look at the model\'s side', () => actions.frameView('side'));
    menuAction('view-top', 'arrow-down', 'Top view', 'Look down on the model', () => actions.frameView('top'));
    menuToggle('ortho', 'symbol-ruler', 'Orthographic', 'Orthographic camera (no perspective)', () => actions.flip('ortho'));
    menuToggle('autoRotate', 'refresh', 'Auto-rotate', 'Turn the camera around the model', () => actions.flip('autoRotate'));
    menuToggle('follow', 'location', 'Follow the animation', 'Keep the camera on the animated model (its bounds at each frame)', () => actions.flip('follow'));
    menuToggle('lit', 'lightbulb', 'Lighting', 'Diffuse lighting from the camera (off: unlit, the texture as it is)', () => actions.flip('lit'));
    menuToggle('winding', 'mirror', 'Flip winding', 'Flip the front-face winding (what an engine with the other convention shows)', () => actions.toggleWinding());
    menuAction('screenshot', 'device-camera', 'Export image…', 'Save the view as a PNG', () => actions.exportImage());
    menuAction('convert-iqe', 'file-code', 'Convert to IQE…', 'Write this model as IQE text beside it and open it (iqmTools.convertToIqe)', () => actions.convertToIqe());
    menuAction('export-gltf', 'export', 'Export to glTF…', 'Write this model as NAME.glb beside it, with its skeleton, animations and textures, for Blender and other glTF tools (iqmTools.exportGltf)', () => actions.exportGltf());
    this.backgroundInput = h('input', { id: 'background', type: 'color', title: 'Background colour' });
    const themeBackground = h('button', { class: 'link-button', title: 'The editor theme\'s background', text: 'theme' });
    themeBackground.addEventListener('click', (e) => {
      e.stopPropagation();
      actions.setBackground('');
    });
    this.backgroundInput.addEventListener('input', () => actions.setBackground(this.backgroundInput.value));
    this.skinSelect = h('select', { id: 'skin', title: 'Skin file (.skin) the textures come from' });
    this.skinSelect.addEventListener('change', () => actions.setSkin(this.skinSelect.value));
    bar.menuBody.append(
      h('label', { class: 'menu-field' }, icon('symbol-color'), h('span', { text: 'Background' }), this.backgroundInput, themeBackground),
      h('label', { class: 'menu-field', id: 'skin-field' }, icon('file-media'), h('span', { text: 'Skin' }), this.skinSelect),
    );
  }

  get el(): HTMLElement {
    return this.toolbar.el;
  }

  /** Puts the buttons that do not fit into the menu (on resize). */
  layout(): void {
    this.toolbar.layout();
  }

  /** The toggles' and menu rows' states; toggles the model has nothing for are disabled. */
  sync(s: ViewState, model: ToolbarFacts | null): void {
    for (const t of TOGGLES) {
      const none =
        (t.key === 'tags' && !model?.tags) || (t.key === 'colors' && !model?.colors) || ((t.key === 'skeleton' || t.key === 'weights') && !model?.skinned) ||
        (t.key === 'bounds' && !model?.bounds);
      this.toolbar.set(t.key, s[t.key] && !none, none);
    }
    this.toolbar.set('player', !!model?.assembled, false, !model?.canAssemble);
    this.toolbar.set('info', s.panel);
    for (const [id, row] of this.menuRows) {
      const on = id === 'winding' ? s.winding === 'flipped' : Boolean(s[id as MenuFlag]);
      row.classList.toggle('on', on);
      row.setAttribute('aria-checked', String(on));
    }
    this.toolbar.layout();
  }

  /** The background picker shows the colour in use ('' : the theme's, shown as its default grey). */
  showBackground(colour: string): void {
    this.backgroundInput.value = colour || '#292b30';
  }

  /** The skin menu: "Automatic" (the engines' choice, named) and the usable .skin files. Returns the selection kept. */
  fillSkins(usable: string[], selected: string): string {
    clear(this.skinSelect);
    this.skinSelect.append(h('option', { value: '', text: usable.length ? `Automatic (${usable[0]})` : 'Automatic (none found)' }));
    for (const s of usable) this.skinSelect.append(h('option', { value: s, text: s }));
    const kept = usable.includes(selected) ? selected : '';
    this.skinSelect.value = kept;
    this.skinSelect.disabled = usable.length === 0;
    return kept;
  }
}
