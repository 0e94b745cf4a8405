// MODELDEF through the real language server, in its Node build (files from disk) and its browser
// build (files and folder listings asked of the client): the planted problems of the generated mod
// folder at their lines, hover, go to definition, completion and the ▶ lens on Frame lines.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { CodeLens, CompletionItem, CompletionList, Hover, Location } from 'vscode-languageserver-protocol';
import { PLAY_CLIP_COMMAND, type PlayClipArgs } from '../../core/lspMethods';
import { MODELDEF_LINES, modeldefModFiles, plantedProblems } from '../helpers/modeldef-mod';
import { withTempDir } from '../helpers/temp-dir';
import { TestServer } from './helpers/server';
import { listFolderFromDisk, readFileFromDisk } from './helpers/diskClient';

const uriOf = (path: string) => pathToFileURL(path).href;

function writeMod(dir: string): void {
  for (const [name, content] of Object.entries(modeldefModFiles())) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
}

const lineOf = (needle: string): number => MODELDEF_LINES.findIndex((l) => l.includes(needle));
const at = (needle: string, offset = 1) => ({ line: lineOf(needle), character: MODELDEF_LINES[lineOf(needle)].indexOf(needle) + offset });
const labels = (r: CompletionItem[] | CompletionList | null): string[] => (Array.isArray(r) ? r : (r?.items ?? [])).map((i) => i.label);

async function exercise(server: TestServer): Promise<void> {
  await withTempDir('iqm-lsp-modeldef-', async (dir) => {
    writeMod(dir);
    const path = join(dir, 'modeldef.txt');
    const uri = uriOf(path);
    await server.open(uri, readFileSync(path, 'latin1'), 1, 'gzdoom-modeldef');
    const published = await server.waitForVersion(uri, 1);
    assert.deepEqual(
      published.diagnostics.map((d) => ({ line: d.range.start.line + 1, code: String(d.code) })),
      plantedProblems(),
    );
    assert.ok(published.diagnostics.every((d) => d.source === 'iqm-tools'));

    const hover = await server.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: at('walk:3') });
    assert.match(JSON.stringify(hover?.contents), /TROO B\*\* shows frame 7 of monster\.iqm \(model index 0\): animation `walk`, frame 3 of its 8/);
    const modelHover = await server.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: at('monster.iqm') });
    assert.match(JSON.stringify(modelHover?.contents), /IQM 2: 17 frames, 1 surface, 3 animations/);

    const definition = await server.request<Location[]>('textDocument/definition', { textDocument: { uri }, position: at('barrel.md3') });
    assert.equal(fileURLToPath(definition[0].uri), join(dir, 'models/barrel/Barrel.md3'));

    // Completion: animation names in a Frame's name, files under Path, keywords at a statement's start.
    const frameLine = lineOf('Frame TROO A 0 "idle"');
    const anims = await server.request<CompletionItem[] | CompletionList>('textDocument/completion', { textDocument: { uri }, position: { line: frameLine, character: MODELDEF_LINES[frameLine].indexOf('"') + 1 } });
    assert.deepEqual(labels(anims), ['idle', 'walk', 'attack']);
    const files = await server.request<CompletionItem[] | CompletionList>('textDocument/completion', { textDocument: { uri }, position: at('"monster.png"') });
    assert.deepEqual(labels(files).sort(), ['monster.png']);
    const keywords = await server.request<CompletionItem[] | CompletionList>('textDocument/completion', { textDocument: { uri }, position: { line: lineOf('AngleOffset'), character: 2 } });
    assert.ok(labels(keywords).includes('SurfaceSkin') && labels(keywords).includes('InheritActorPitch'), labels(keywords).join(' '));

    const lenses = await server.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    const walk = lenses.find((l) => l.range.start.line === lineOf('walk:3'));
    assert.equal(walk?.command?.command, PLAY_CLIP_COMMAND);
    assert.equal(walk?.command?.title, '▶ walk 4/8');
    const args = walk?.command?.arguments?.[0] as PlayClipArgs;
    assert.deepEqual([fileURLToPath(args.model), args.clip, args.firstFrame, args.frame], [join(dir, 'models/monster/monster.iqm'), 'walk', 4, 3]);
    const roll = lenses.find((l) => l.range.start.line === lineOf('"roll"'))?.command?.arguments?.[0] as PlayClipArgs;
    assert.deepEqual([roll.clip, roll.frame], ['(all frames)', 1]);
    // Lines whose frame is not found have no lens.
    assert.equal(lenses.find((l) => l.range.start.line === lineOf('atack')), undefined);
    await server.close(uri);
  });
}

/** An unsaved edit of an included file reaches the MODELDEF that includes it; the cross-file duplicate points into the included file. */
async function includes(server: TestServer): Promise<void> {
  await withTempDir('iqm-lsp-modeldef-include-', async (dir) => {
    writeMod(dir);
    const uri = uriOf(join(dir, 'modeldef.txt'));
    const weapons = uriOf(join(dir, 'modeldef.weapons'));
    await server.open(uri, readFileSync(join(dir, 'modeldef.txt'), 'latin1'), 1, 'gzdoom-modeldef');
    const first = await server.waitForVersion(uri, 1);
    const summary = first.diagnostics.find((d) => d.code === 'modeldef-include-problems');
    assert.deepEqual(summary?.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]), [
      [weapons, 7],
      [weapons, 9],
    ]);
    const duplicate = first.diagnostics.find((d) => d.code === 'modeldef-duplicate' && d.range.start.line === lineOf('PISG B 0 0'));
    assert.deepEqual(duplicate?.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]), [[weapons, 6]]);
    // modeldef.weapons opened and its frame past the model fixed, unsaved: modeldef.txt's summary has only the cycle left.
    const text = readFileSync(join(dir, 'modeldef.weapons'), 'latin1');
    await server.open(weapons, text, 1, 'gzdoom-modeldef');
    const mark = server.mark();
    await server.change(weapons, 2, [{ text: text.replace('PISG C 0 3 // planted: modeldef-frame-index', 'PISG C 0 2') }]);
    const after = await server.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'modeldef-include-problems' && /has 1 problem: line 10: #include "modeldef\.txt" includes/.test(d.message)), { since: mark });
    assert.equal(after.diagnostics.find((d) => d.code === 'modeldef-include-problems')?.relatedInformation?.length, 1);
    await server.close(weapons);
    await server.close(uri);
  });
}

/** iqmTools.engine uzdoom: UZDoom's words are read, and completed; back to GZDoom's without it. */
async function uzdoom(server: TestServer): Promise<void> {
  await withTempDir('iqm-lsp-modeldef-uzdoom-', async (dir) => {
    writeMod(dir);
    const uri = uriOf(join(dir, 'modeldef.txt'));
    const text = 'Model ZombieMonster\n{\n  Model 0 "models/monster/monster.iqm"\n  ViewModelFOV 90\n  BaseFrame\n  \n}\n';
    try {
      await server.setSettings({ debounceMs: 0 }, 'uzdoom');
      await server.open(uri, text, 1, 'gzdoom-modeldef');
      assert.deepEqual((await server.waitForVersion(uri, 1)).diagnostics.map((d) => d.code), []);
      const words = await server.request<CompletionItem[] | CompletionList>('textDocument/completion', { textDocument: { uri }, position: { line: 5, character: 2 } });
      assert.ok(labels(words).includes('ViewModelFOV') && labels(words).includes('BaseFrame'), labels(words).join(' '));
      await server.close(uri);
      await server.setSettings({ debounceMs: 0 }, 'gzdoom');
      await server.open(uri, text, 2, 'gzdoom-modeldef');
      assert.deepEqual((await server.waitForVersion(uri, 2)).diagnostics.map((d) => `${d.range.start.line} ${String(d.code)}`), ['3 modeldef-unknown-keyword', '3 modeldef-unknown-keyword', '4 modeldef-unknown-keyword']);
      const gzWords = await server.request<CompletionItem[] | CompletionList>('textDocument/completion', { textDocument: { uri }, position: { line: 5, character: 2 } });
      assert.ok(labels(gzWords).includes('SurfaceSkin') && !labels(gzWords).includes('ViewModelFOV'), labels(gzWords).join(' '));
      await server.close(uri);
    } finally {
      await server.setSettings({ debounceMs: 0 });
    }
  });
}

/** A completion request as VS Code sends it when `trigger` was typed. */
const typed = (server: TestServer, uri: string, line: number, character: number, trigger: string) =>
  server.request<CompletionItem[] | CompletionList | null>('textDocument/completion', { textDocument: { uri }, position: { line, character }, context: { triggerKind: 2, triggerCharacter: trigger } });

/** `"` and `/` trigger completion for MODELDEF's file names: typed elsewhere, they complete nothing. */
async function triggers(server: TestServer): Promise<void> {
  await withTempDir('iqm-lsp-modeldef-triggers-', async (dir) => {
    writeMod(dir);
    const iqe = uriOf(join(dir, 'typed.iqe'));
    await server.open(iqe, '# Inter-Quake Export\n"\n/\nmesh "a\n', 1, 'iqe');
    assert.deepEqual(labels(await typed(server, iqe, 1, 1, '"')), [], 'a quote typed at an IQE line start');
    assert.deepEqual(labels(await typed(server, iqe, 2, 1, '/')), [], 'a slash typed at an IQE line start');
    assert.deepEqual(labels(await typed(server, iqe, 3, 6, '"')), [], 'a quote typed in an IQE mesh name');
    // Typed by hand (no trigger character), an IQE line start still completes the commands.
    const invoked = await server.request<CompletionItem[] | CompletionList | null>('textDocument/completion', { textDocument: { uri: iqe }, position: { line: 1, character: 0 } });
    assert.ok(labels(invoked).includes('vertexarray'), labels(invoked).join(' '));
    await server.close(iqe);

    const path = join(dir, 'modeldef.txt');
    const uri = uriOf(path);
    const text = readFileSync(path, 'latin1').replace('  AngleOffset 90\n', '  AngleOffset 90\n  //\n  Path "models/\n');
    await server.open(uri, text, 1, 'gzdoom-modeldef');
    // Checked first (completion answers from the check of the text).
    await server.waitForVersion(uri, 1);
    const lines = text.split('\n');
    const comment = lines.indexOf('  //');
    assert.deepEqual(labels(await typed(server, uri, comment, 4, '/')), [], 'a comment typed in a block: no keywords');
    const closing = lines.findIndex((l) => l.startsWith('  Model 0 "monster.iqm"'));
    assert.deepEqual(labels(await typed(server, uri, closing, lines[closing].length, '"')), [], 'a closing quote');
    // In a file name, both still complete.
    const opening = lines.findIndex((l) => l.startsWith('  Skin 0 "monster.png"'));
    assert.deepEqual(labels(await typed(server, uri, opening, lines[opening].indexOf('"') + 1, '"')).sort(), ['monster.png']);
    const folder = lines.indexOf('  Path "models/');
    assert.deepEqual(labels(await typed(server, uri, folder, lines[folder].length, '/')).sort(), ['barrel', 'monster']);
    await server.close(uri);
  });
}

describe('lsp: MODELDEF on the Node server', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(async () => {
    await server?.stop();
  });
  it('the generated mod folder: the planted problems, hover, definition, completion, ▶ lenses', () => exercise(server));
  it('the trigger characters " and / complete in MODELDEF file names only (nothing in IQE, nor in a MODELDEF comment)', () => triggers(server));
  it('#include: the included file\'s problems and a duplicate point into it; its unsaved edits reach the includer', () => includes(server));
  it('iqmTools.engine uzdoom: UZDoom\'s MODELDEF words read and completed', () => uzdoom(server));
});

describe('lsp: MODELDEF on the browser build of the server', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start({ web: true, files: readFileFromDisk, listFolder: listFolderFromDisk });
  });
  after(async () => {
    await server?.stop();
  });
  it('the same, with every file asked of the client', () => exercise(server));
  it('the trigger characters the same', () => triggers(server));
  it('#include the same', () => includes(server));
});
