// The language features of a MODELDEF (GZDoom, UZDoom) from its check (core/sidecarCheck/modeldef.ts):
// hover, go to definition, completion and the "▶" code lens on each Frame / FrameIndex line.
// Pure functions of the check and the text; the folder listings for file completion are injected.
// The document lifecycle (open, change, validate, publish) is server/sidecars.ts's.
import { CompletionItemKind, MarkupKind, type CodeLens, type CompletionItem, type Hover, type Location, type Position } from 'vscode-languageserver';
import type { Range } from '../core/iqe/diagnostic';
import { PLAY_CLIP_COMMAND, type PlayClipArgs } from '../core/lspMethods';
import { KEYWORD_SPELLING, modeldefWords, tokenizeModeldef, type ModeldefBlock } from '../core/sidecar/modeldef';
import { modeldefLinkAt, type ModeldefCheck, type ModeldefLink, type ModeldefModel } from '../core/sidecarCheck/modeldef';
import { fileNameOf, joinPath } from '../core/paths';

const lspRange = (r: Range) => ({ start: { line: r.line, character: r.column }, end: { line: r.endLine, character: r.endColumn } });

/** The clip the preview lists for every frame of a model (media/load.ts viewClips). */
const ALL_FRAMES_CLIP = '(all frames)';

function relative(check: ModeldefCheck, path: string): string {
  return path.startsWith(check.root === '/' ? '/' : `${check.root}/`) ? path.slice(check.root === '/' ? 1 : check.root.length + 1) : path;
}

/** Markdown for a model file: what it holds, as the engine sees it. */
function modelSummary(check: ModeldefCheck, model: ModeldefModel): string {
  if (model.path === undefined) return `\`${model.lookedUp}\`: not found in the mod folder`;
  const lines = [`**${fileNameOf(model.path)}**: \`${relative(check, model.path)}\``];
  const s = model.summary;
  if (s) {
    const clips = s.format === 'iqm' ? (s.clips ?? []) : [];
    lines.push(`${s.format?.toUpperCase() ?? ''} ${s.version ?? ''}: ${s.frameCount} frame${s.frameCount === 1 ? '' : 's'}, ${s.surfaces.length} surface${s.surfaces.length === 1 ? '' : 's'}${clips.length ? `, ${clips.length} animation${clips.length === 1 ? '' : 's'}` : ''}`);
    if (clips.length) lines.push(clips.slice(0, 20).map((c) => `\`${c.name}\` ${c.frameCount} frame${c.frameCount === 1 ? '' : 's'} (${c.firstFrame}–${c.firstFrame + c.frameCount - 1})`).join(', ') + (clips.length > 20 ? `, and ${clips.length - 20} more` : ''));
    else if (s.format === 'md3' && s.frameNames?.length) lines.push(`frames: ${s.frameNames.slice(0, 20).map((n) => `\`${n}\``).join(', ')}${s.frameNames.length > 20 ? ', …' : ''}`);
  } else if (model.md2Frames) {
    lines.push(`MD2: ${model.md2Frames.length} frames: ${model.md2Frames.slice(0, 20).map((n) => `\`${n}\``).join(', ')}${model.md2Frames.length > 20 ? ', …' : ''}`);
  } else if (model.error === undefined) lines.push('a format iqm-tools does not read: its frames are not checked');
  if (model.error !== undefined) lines.push(`⚠ ${model.error}`);
  return lines.join('\n\n');
}

function linkHover(check: ModeldefCheck, link: ModeldefLink): string {
  switch (link.kind) {
    case 'model':
    case 'animation':
      return `${link.kind === 'model' ? 'Model' : 'Animation'} ${link.index}: ${modelSummary(check, link.model)}`;
    case 'skin':
      return link.path ? `Skin \`${link.lookedUp}\`: found \`${relative(check, link.path)}\`` : `Skin \`${link.lookedUp}\`: no such image in the mod folder (GZDoom then tries it as a texture name)`;
    case 'include':
      return link.path ? `Includes \`${relative(check, link.path)}\`` : `\`${link.lookedUp}\`: not in the mod folder`;
    case 'frame': {
      const sprite = `${link.sprite.slice(0, 4).toUpperCase()} ${link.letters.toUpperCase()}`;
      const where = link.clip ? `: animation \`${link.clip.name}\`, frame ${link.clip.offset} of its ${link.clip.frameCount} (${link.clip.firstFrame}–${link.clip.firstFrame + link.clip.frameCount - 1})` : '';
      return `**${sprite}** shows frame ${link.frame} of ${fileNameOf(link.model.path ?? link.model.lookedUp)} (model index ${link.index})${where}`;
    }
  }
}

export function modeldefHover(check: ModeldefCheck, position: Position): Hover | null {
  const link = modeldefLinkAt(check, position.line, position.character);
  if (!link) return null;
  const range = link.kind === 'frame' ? link.frameRange : link.range;
  return { contents: { kind: MarkupKind.Markdown, value: linkHover(check, link) }, range: lspRange(range) };
}

/** Go to definition: the model, skin or included file a name resolves to. */
export function modeldefDefinition(check: ModeldefCheck, position: Position, toUri: (path: string) => string): Location[] {
  const link = modeldefLinkAt(check, position.line, position.character);
  const path = !link ? undefined : link.kind === 'skin' || link.kind === 'include' ? link.path : link.model.path;
  return path === undefined ? [] : [{ uri: toUri(path), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }];
}

/** "▶" on each Frame / FrameIndex line whose model frame was found: the preview shows that frame, paused. */
export function modeldefCodeLenses(check: ModeldefCheck, uri: string, toUri: (path: string) => string): CodeLens[] {
  const lenses: CodeLens[] = [];
  check.links.forEach((link, index) => {
    if (link.kind !== 'frame' || link.model.path === undefined) return;
    const args: PlayClipArgs = link.clip
      ? { model: toUri(link.model.path), clip: link.clip.name, index, firstFrame: link.clip.firstFrame, frame: link.clip.offset, sidecar: uri }
      : { model: toUri(link.model.path), clip: ALL_FRAMES_CLIP, index, frame: link.frame, sidecar: uri };
    const title = link.clip ? `▶ ${link.clip.name} ${link.clip.offset + 1}/${link.clip.frameCount}` : `▶ frame ${link.frame}`;
    lenses.push({ range: lspRange(link.range), command: { title, command: PLAY_CLIP_COMMAND, arguments: [args] } });
  });
  return lenses;
}

/** The block a line is in (between its `{` and `}`), if any. */
function blockAt(check: ModeldefCheck, line: number): ModeldefBlock | undefined {
  return check.file.blocks.find((b) => b.keyword.line <= line && (b.close === undefined || line <= b.close.line));
}

/** The characters whose typing asks for MODELDEF completion: a file name's opening quote and its folders' `/`. */
export const MODELDEF_TRIGGER_CHARACTERS: readonly string[] = ['"', '/'];

/**
 * Completion at a position: keywords and flags at a statement's start inside a block (`Model` and
 * `#include` outside one); inside the quotes of a file name, the files under the block's Path (a
 * Path's own string: folders from the mod's root); in a Frame's name, the model's animation names
 * (IQM) or frame names (MD3, MD2).
 */
export async function modeldefCompletions(check: ModeldefCheck, text: string, position: Position, listFolder: (path: string) => Promise<readonly string[] | null>, trigger?: string): Promise<CompletionItem[]> {
  const lineText = text.split(/\r\n|\r|\n/)[position.line] ?? '';
  const before = lineText.slice(0, position.character);
  const words = tokenizeModeldef(before);
  const inString = (before.match(/"/g)?.length ?? 0) % 2 === 1;
  const block = blockAt(check, position.line);
  // Typed, `"` and `/` complete only inside a file name: not a closing quote, not a `//` comment.
  if (trigger !== undefined && (!MODELDEF_TRIGGER_CHARACTERS.includes(trigger) || !inString)) return [];
  if (!inString) {
    const atStart = words.length === 0 || (words.length === 1 && !/\s$/.test(before) && !words[0].quoted) || (words.length === 1 && words[0].text === '{');
    if (!atStart) return [];
    if (!block || (block.keyword.line === position.line && block.close?.line !== position.line)) {
      return [
        { label: 'Model', kind: CompletionItemKind.Keyword, detail: 'Model ActorClass { ... }' },
        { label: '#include', kind: CompletionItemKind.Keyword, detail: 'another MODELDEF file, by its full name' },
      ];
    }
    const { keywords, flags } = modeldefWords(check.dialect);
    return [
      ...Object.keys(keywords).map((k): CompletionItem => ({ label: KEYWORD_SPELLING[k] ?? k, kind: CompletionItemKind.Keyword })),
      ...flags.map((flag): CompletionItem => ({ label: flagSpelling(flag), kind: CompletionItemKind.EnumMember, detail: 'flag' })),
    ];
  }
  if (!block) return [];
  const keyword = words[0]?.text.toLowerCase();
  const statementsBefore = block.statements.filter((s) => s.tokens[0].line < position.line || (s.tokens[0].line === position.line && s.tokens[0].column < position.character));
  const pathStatement = [...statementsBefore].reverse().find((s) => s.keyword === 'path' && s.complete && s.tokens[0].line !== position.line);
  // As the engine: Path ends in `/` (one is added where it does not).
  const folder = pathStatement ? String(pathStatement.values[0]).replace(/\\/g, '/').replace(/([^/])$/, '$1/') : '';
  if (keyword === 'path' || keyword === 'model' || keyword === 'animation' || keyword === 'skin' || keyword === 'surfaceskin') {
    // The part typed after the opening quote: folders in it are walked, the last part is completed.
    const typed = before.slice(before.lastIndexOf('"') + 1).replace(/\\/g, '/');
    const base = keyword === 'path' ? '' : folder;
    const dir = joinPath(check.root, base + typed.slice(0, typed.lastIndexOf('/') + 1));
    const names = (await listFolder(dir)) ?? [];
    const wanted = keyword === 'model' || keyword === 'animation' ? /\.(iqm|md3|md2|dmd|obj|3d|kvx)$/i : keyword === 'path' ? /^[^.]+$/ : /\.(png|jpg|jpeg|tga|pcx)$/i;
    return names.filter((n) => wanted.test(n) || !n.includes('.')).map((n): CompletionItem => ({ label: n, kind: n.includes('.') ? CompletionItemKind.File : CompletionItemKind.Folder }));
  }
  if (keyword === 'frame' && words.length >= 4) {
    const index = Number(words[3].text);
    const slot = [...check.links].reverse().find((l): l is Extract<ModeldefLink, { kind: 'model' | 'animation' }> => l.kind === 'model' && l.index === index && l.range.line < position.line && l.range.line >= block.keyword.line);
    const s = slot?.model.summary;
    if (s?.format === 'iqm') return (s.clips ?? []).map((c): CompletionItem => ({ label: c.name, kind: CompletionItemKind.Value, detail: `${c.frameCount} frames (${c.firstFrame}–${c.firstFrame + c.frameCount - 1}); "${c.name}:N" is its frame N` }));
    const names = slot?.model.md2Frames ?? (s?.format === 'md3' ? s.frameNames : undefined) ?? [];
    return names.map((n, i): CompletionItem => ({ label: n, kind: CompletionItemKind.Value, detail: `frame ${i}` }));
  }
  return [];
}

/** Flags as the wiki writes them (the engine ignores case). */
function flagSpelling(flag: string): string {
  const words: Record<string, string> = {
    ignoretranslation: 'IgnoreTranslation',
    pitchfrommomentum: 'PitchFromMomentum',
    inheritactorpitch: 'InheritActorPitch',
    inheritactorroll: 'InheritActorRoll',
    useactorpitch: 'UseActorPitch',
    useactorroll: 'UseActorRoll',
    noperpixellighting: 'NoPerPixelLighting',
    scaleweaponfov: 'ScaleWeaponFOV',
    modelsareattachments: 'ModelsAreAttachments',
    rotating: 'Rotating',
    interpolatedoubledframes: 'InterpolateDoubledFrames',
    nointerpolation: 'NoInterpolation',
    dontcullbackfaces: 'DontCullBackfaces',
    userotationcenter: 'UseRotationCenter',
    baseframe: 'BaseFrame',
    correctpixelstretch: 'CorrectPixelStretch',
    forcecullbackfaces: 'ForceCullBackfaces',
  };
  return words[flag] ?? flag;
}

