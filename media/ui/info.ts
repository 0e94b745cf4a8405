// The info panel: format, counts, meshes and materials (with the texture lookup), the joint tree,
// animations, vertex arrays, extensions, comment and the reader's warnings; an assembled Quake 3
// player's three parts first, and before them the validator's and the engines' findings.

import { UNWEIGHTED_EFFECT, type Model } from '../../core/model/model';
import type { EngineReport, Highlight, TextureResult } from '../../core/protocol';
import type { ValidationReport } from '../../core/validate/report';
import { issueHighlight } from '../../core/validate/target';
import type { Scene, ViewClip } from '../scene';
import { clear, h } from './dom';

export interface InfoCallbacks {
  selectJoint(joint: number): void;
  /** Outlines vertices or triangles in the view (a validator issue clicked). */
  highlight(target: Highlight): void;
  selectClip(clip: number): void;
}

function section(title: string, open: boolean, ...body: (Node | null)[]): HTMLDetailsElement {
  const d = h('details', { class: 'section' }, h('summary', { text: title }), ...body);
  d.open = open;
  return d;
}

function table(rows: [string, string][]): HTMLTableElement {
  return h('table', { class: 'kv' }, ...rows.map(([k, v]) => h('tr', null, h('th', { text: k }), h('td', { text: v }))));
}

/**
 * A path as the panel shows it: relative to the model's folder when it is in it or below (the
 * full path is the tooltip), else whole. Paths are file-system paths (either separator) or URIs,
 * the same kind for the model and its textures.
 */
export function shownPath(path: string, modelPath: string): string {
  const folder = modelPath.slice(0, Math.max(modelPath.lastIndexOf('/'), modelPath.lastIndexOf('\\')) + 1);
  return folder !== '' && path.startsWith(folder) ? path.slice(folder.length) : path;
}

export function renderInfo(
  root: HTMLElement,
  fileName: string,
  /** The model's full path or URI (LoadMessage.path): texture paths are shown relative to its folder. */
  modelPath: string,
  scene: Scene,
  clips: ViewClip[],
  notes: string[],
  textures: (TextureResult | null)[],
  cb: InfoCallbacks,
  engines?: EngineReport,
  /** An assembled Quake 3 player's parts (lower, upper, head), the opened one among them. */
  player?: readonly PlayerPartInfo[],
  validation?: ValidationReport,
): void {
  clear(root);
  if (validation) root.append(validationSection(validation, scene.model, cb));
  if (engines) root.append(engineSection(engines));
  if (player) root.append(playerSection(player, fileName));
  const model: Model = scene.model;
  const layout = scene.layout;
  // A skeletal model whose meshes carry no blend weights at all (no blend arrays): every vertex is unweighted.
  const noBlend = layout.kind === 'static' && scene.jointCount > 0 && model.skeleton !== null;
  const unweighted = noBlend ? layout.totalVertices : layout.meshes.reduce((n, m) => n + m.unweighted, 0);
  const dropped = layout.meshes.reduce((n, m) => n + m.droppedInfluences, 0);
  const rows: [string, string][] = [
    ['file', fileName],
    ['format', `${model.format.toUpperCase()} version ${model.version}`],
    ['winding', model.winding === 'cw' ? 'clockwise front faces' : 'counter-clockwise front faces'],
    ['meshes', String(model.meshes.length)],
    ['vertices', String(layout.totalVertices)],
    ['triangles', String(layout.totalTriangles)],
    ['joints', String(scene.jointCount)],
    ['frames', String(model.frameCount)],
    ['skinning', layout.kind === 'linear' ? 'GPU, 4 influences (joint texture)' : layout.kind === 'dpm' ? 'GPU, exact DPM influences' : layout.kind === 'morph' ? 'GPU vertex morphing' : 'static'],
  ];
  if (model.tags && model.tags.names.length) rows.push(['tags', model.tags.names.join(', ')]);
  if (unweighted) rows.push(['unweighted vertices', `${unweighted}${noBlend ? ' (all: the meshes have no blend weights)' : ''}: ${UNWEIGHTED_EFFECT}${noBlend ? '' : ' (magenta in the Weights view)'}`]);
  if (dropped) rows.push(['dropped influences', String(dropped)]);
  root.append(section('Model', true, table(rows)));

  // Meshes and materials with the texture lookup.
  const meshList = h('ol', { class: 'meshes' });
  model.meshes.forEach((m, i) => {
    const t = textures[i];
    const found = t && (t.source.kind === 'bytes' || t.source.kind === 'uri') ? t.source.path : null;
    const status = !t ? 'looking up…' : t.source.kind === 'color' ? t.source.label : found === null ? 'not found (checker)' : shownPath(found, modelPath);
    const li = h(
      'li',
      null,
      h('span', { class: 'name', text: m.name || '(unnamed)' }),
      ` ${m.vertexCount} vertices, ${m.triangleCount} triangles`,
      h('div', { class: 'dim', text: `material: ${m.material || '(empty)'}${m.shaders.length > 1 ? ` shaders: ${m.shaders.join(', ')}` : ''}` }),
      h('div', { class: t && t.source.kind === 'none' ? 'warn' : 'dim', title: found ?? undefined, text: `texture: ${status}${t && t.via ? ` (${t.via})` : ''}` }),
    );
    if (t && t.tried.length) {
      const tried = h('details', { class: 'tried' }, h('summary', { text: t.tried.length === 1 ? '1 path tried' : `${t.tried.length} paths tried` }), h('pre', { text: t.tried.map((path) => shownPath(path, modelPath)).join('\n') }));
      li.append(tried);
    }
    meshList.append(li);
  });
  root.append(section(`Meshes (${model.meshes.length}) and materials (${model.materials.length})`, true, meshList));

  // Joint tree.
  if (scene.jointCount > 0) {
    const children: number[][] = Array.from({ length: scene.jointCount }, () => []);
    const roots: number[] = [];
    for (let j = 0; j < scene.jointCount; j++) {
      const p = scene.parents[j];
      if (p >= 0 && p < scene.jointCount) children[p].push(j);
      else roots.push(j);
    }
    const build = (j: number, depth: number): HTMLElement => {
      const item = h('li', null, h('a', { href: '#', class: 'joint', 'data-joint': j, text: `${j}: ${scene.names[j]}` }));
      if (children[j].length && depth < 200) item.append(h('ul', null, ...children[j].map((c) => build(c, depth + 1))));
      return item;
    };
    const tree = h('ul', { class: 'tree' }, ...roots.map((r) => build(r, 0)));
    tree.addEventListener('click', (e) => {
      const a = (e.target as HTMLElement).closest('a.joint');
      if (!a) return;
      e.preventDefault();
      cb.selectJoint(Number(a.getAttribute('data-joint')));
    });
    root.append(section(`Joints (${scene.jointCount})`, false, tree));
  }

  // Animations.
  if (clips.length) {
    const list = h('ol', { class: 'clips', start: 0 });
    clips.forEach((c, i) => {
      const fps = c.fps > 0 ? `${c.fps} fps` : '0 fps in the file (played at 10)';
      const a = h('a', { href: '#', 'data-clip': i, text: c.name });
      list.append(h('li', null, a, ` frames ${c.firstFrame}–${c.firstFrame + c.frameCount - 1} (${c.frameCount}), ${fps}${c.loop ? ', loops' : ''}${c.reverse ? ', reversed' : ''} [${c.source}]`));
    });
    list.addEventListener('click', (e) => {
      const a = (e.target as HTMLElement).closest('a[data-clip]');
      if (!a) return;
      e.preventDefault();
      cb.selectClip(Number(a.getAttribute('data-clip')));
    });
    root.append(section(`Animations (${clips.length})`, false, list));
  }

  // IQM specifics.
  const iqm = model.iqm;
  if (iqm) {
    if (iqm.vertexArrays.length) {
      root.append(
        section(
          'Vertex arrays',
          false,
          h(
            'table',
            { class: 'grid' },
            h('tr', null, h('th', { text: 'type' }), h('th', { text: 'format' }), h('th', { text: 'size' }), h('th', { text: 'offset' })),
            ...iqm.vertexArrays.map((a) => h('tr', null, h('td', { text: `${a.name} (${a.type})` }), h('td', { text: a.format }), h('td', { text: String(a.size) }), h('td', { text: String(a.offset) }))),
          ),
        ),
      );
    }
    if (iqm.extensions.length) {
      root.append(section('Extensions', false, h('ul', null, ...iqm.extensions.map((e) => h('li', { text: `${e.name}: ${e.size} bytes at ${e.offset}` })))));
    }
    if (iqm.fteEvents && iqm.fteEvents.length) {
      root.append(section('FTE_EVENT', false, h('ul', null, ...iqm.fteEvents.map((e) => h('li', { text: `anim ${e.anim} @ ${e.timestamp}: code ${e.code} "${e.data}"` })))));
    }
    if (iqm.comment) root.append(section('Comment', false, h('pre', { text: iqm.comment })));
  }
  const warnings = [...notes, ...model.warnings];
  if (warnings.length) root.append(section(`Warnings and notes (${warnings.length})`, true, h('ul', { class: 'warnings' }, ...warnings.map((w) => h('li', { text: w })))));
}

/** What the info panel says of each part of an assembled player. */
export interface PlayerPartInfo {
  part: string;
  fileName: string;
  scene: Scene;
}

/** An assembled player: its three parts, each with its counts, tags and surfaces (the sections below describe the opened part). */
function playerSection(parts: readonly PlayerPartInfo[], opened: string): HTMLDetailsElement {
  const list = h('ol', { class: 'meshes' });
  let vertices = 0, triangles = 0;
  for (const p of parts) {
    const m = p.scene.model;
    vertices += p.scene.layout.totalVertices;
    triangles += p.scene.layout.totalTriangles;
    list.append(
      h(
        'li',
        { 'data-part': p.part },
        h('span', { class: 'name', text: `${p.part}: ${p.fileName}` }),
        `${p.fileName === opened ? ' (opened)' : ''} ${m.meshes.length} surfaces, ${p.scene.layout.totalVertices} vertices, ${p.scene.layout.totalTriangles} triangles, ${m.frameCount} frames`,
        h('div', { class: 'dim', text: `surfaces: ${m.meshes.map((x) => x.name || '(unnamed)').join(', ') || 'none'}` }),
        h('div', { class: 'dim', text: `tags: ${m.tags?.names.join(', ') || 'none'}` }),
      ),
    );
  }
  return section(`Player: ${parts.length} parts, ${vertices} vertices, ${triangles} triangles`, true, list, h('div', { class: 'dim', text: `The sections below describe ${opened}.` }));
}

/** `iqmTools.engine`: what each chosen engine would refuse (error), change (warning) or note, with the engine fact and its source. */
function engineSection(report: EngineReport): HTMLDetailsElement {
  const list = h('ul', { class: 'engine-findings' });
  for (const f of report.findings) {
    list.append(h('li', { class: `engine-${f.severity}`, title: `${f.fact} — ${f.source}` }, h('strong', { text: `${f.severity} ` }), `${f.engine}: ${f.message} (${f.where}) [${f.code}]`, h('div', { class: 'engine-fact', text: `${f.fact} — ${f.source}` })));
  }
  if (report.unknown.length) list.append(h('li', { class: 'engine-warning', text: `unknown engine ${report.unknown.map((u) => `"${u}"`).join(', ')} in iqmTools.engine` }));
  const refused = report.findings.filter((f) => f.severity === 'error').length;
  const changed = report.findings.filter((f) => f.severity === 'warning').length;
  const summary = report.findings.length === 0 ? 'no findings' : `${refused} refused, ${changed} changed, ${report.findings.length - refused - changed} notes`;
  if (report.findings.length === 0 && !report.unknown.length) list.append(h('li', { text: `${report.engines.join(', ')}: nothing refused or changed` }));
  return section(`Engines: ${report.engines.join(', ') || 'none'} (${summary})`, report.findings.some((f) => f.severity !== 'information'), list);
}

/**
 * The validator's report (as in the Problems panel): each issue with its code, byte offset and
 * where; one that names a joint, vertex or triangle of the drawn model is a button that selects
 * the joint or outlines the vertex or triangle.
 */
function validationSection(report: ValidationReport, model: Model, cb: InfoCallbacks): HTMLDetailsElement {
  const list = h('ul', { class: 'engine-findings validation-issues' });
  for (const issue of report.issues) {
    const target = issueHighlight(issue.where, report.format, model);
    const text = `${issue.message} (byte ${issue.offset}) [${issue.code}]`;
    const item = h('li', { class: `engine-${issue.severity === 'error' ? 'error' : issue.severity === 'warning' ? 'warning' : 'information'}` }, h('strong', { text: `${issue.severity} ` }));
    if (target) {
      const show = h('button', { class: 'link-button', title: `show ${issue.where} in the view`, text });
      // As the host's highlight: a joint is selected, and an earlier issue's outline goes.
      show.addEventListener('click', () => cb.highlight(target));
      item.append(show);
    } else item.append(text);
    list.append(item);
  }
  for (const [code, n] of Object.entries(report.omitted)) list.append(h('li', { class: 'dim', text: `… and ${n} more [${code}]` }));
  for (const note of report.notes) list.append(h('li', { class: 'dim', text: note }));
  const { error, warning, information } = report.counts;
  if (error + warning + information === 0) list.append(h('li', { text: 'no problem found' }));
  const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  return section(`Validation: ${count(error, 'error')}, ${count(warning, 'warning')}, ${count(information, 'note')}`, error + warning > 0, list);
}
