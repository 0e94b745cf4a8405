// One meaning per exported name: a function, class, interface, type or constant exported from
// core/, client/, server/, media/, cli/, node/ or the test helpers is declared in one file only,
// so that an import of a name means one thing wherever it is read (issue 30: `writeIqm` was the
// compiler's writer in one file and the tests' in another, `baseName` kept the extension in one
// and dropped it in another).
//
// The names still declared twice, in files other work is changing, are listed in TWICE with the
// new name suggested; the list is exact (a name that is no longer declared in exactly those files
// fails the test too), so it shrinks as they are renamed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, sourceFiles } from '../helpers/source-tree';

const SCANNED = ['core', 'client', 'server', 'media', 'cli', 'node', 'test/helpers', 'test/lsp/helpers'];

interface Twice {
  name: string;
  files: readonly string[];
  why: string;
}

/** Names declared in more than one file: every file that declares it, and why it may. */
const TWICE: readonly Twice[] = [
  // The two hosts' entries: VS Code calls `activate` by name in each.
  { name: 'activate', files: ['client/browser/extension.ts', 'client/node/extension.ts'], why: 'the entry point of each extension host (VS Code names it)' },
  // issue 30, to rename in files other work owns (the suggested name first):
  { name: 'CompanionFiles', files: ['client/preview/files.ts', 'core/formats/companions.ts'], why: 'client/preview/files: PreviewCompanions (the same files as URIs for the webview)' },
  { name: 'readModelFile', files: ['client/preview/modelLoad.ts', 'core/formats/models.ts'], why: 'client/preview/modelLoad: loadPreviewModel (reads with the sidecars through vscode.workspace.fs)' },
  { name: 'textureCandidates', files: ['core/engines/textures.ts', 'core/sidecar/precedence.ts'], why: 'sidecar/precedence: textureNamesInOrder; core/lookup work' },
  { name: 'searchFolders', files: ['client/preview/resolve.ts', 'core/sidecar/companions.ts'], why: 'core/lookup owns the texture search; client/preview/resolve goes with it' },
  { name: 'joinPath', files: ['client/preview/resolve.ts', 'core/paths.ts'], why: 'client/preview/resolve: use core/paths joinPath; core/lookup work' },
  { name: 'TextureResult', files: ['core/protocol.ts', 'core/sidecar/lint.ts'], why: 'sidecar/lint: TextureLookupResult; core/lookup work' },
  { name: 'PlayerPart', files: ['core/engines/player.ts', 'core/protocol.ts'], why: 'engines/player: PlayerPartName (a union of part names); protocol keeps PlayerPart; core/lookup work' },
  { name: 'Loaded', files: ['cli/info.ts', 'media/load.ts'], why: 'cli/info: InfoModel; media/load: LoadedModel' },
  { name: 'ModelFacts', files: ['core/engines/facts.ts', 'media/ui/viewToolbar.ts'], why: 'media/ui/viewToolbar: ToolbarFacts' },
  { name: 'Skeleton', files: ['core/compile/skeleton.ts', 'core/model/model.ts'], why: 'compile/skeleton: OutputSkeleton (as layout.ts names OutputJoint)' },
  { name: 'DEFAULT_FPS', files: ['core/gltf/reader.ts', 'core/model/model.ts'], why: 'gltf/reader: GLTF_SAMPLE_FPS (the sampling rate without one in the file); model keeps the playback default' },
  { name: 'Section', files: ['core/compile/source.ts', 'core/iqe/navigation.ts'], why: 'compile/source: SourceSection; iqe/navigation: OutlineSection' },
  { name: 'Token', files: ['core/md5/tokens.ts', 'core/sidecar/text.ts'], why: 'md5/tokens: Md5Token; sidecar/text: SidecarToken' },
  { name: 'isSpace', files: ['core/iqe/numbers.ts', 'core/whitespace.ts'], why: 'iqe/numbers: isAsciiSpace (ASCII only; core/whitespace is /\\s/)' },
];

const DECLARATION = /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|class|interface|type|const|let|var|enum)\s+([A-Za-z_$][\w$]*)/gm;

/** Exported name -> the files that declare it, sorted. */
function declarations(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of SCANNED.flatMap(sourceFiles)) {
    for (const m of readFileSync(join(REPO, file), 'utf8').matchAll(DECLARATION)) {
      const files = found.get(m[1]) ?? [];
      if (!files.includes(file)) files.push(file);
      found.set(m[1], files);
    }
  }
  for (const files of found.values()) files.sort();
  return found;
}

const declared = declarations();

test('every exported name is declared in one file (besides TWICE)', () => {
  const twice = [...declared].filter(([name, files]) => files.length > 1 && !TWICE.some((t) => t.name === name));
  assert.deepEqual(twice.map(([name, files]) => `${name}: ${files.join(', ')}`), []);
});

test('TWICE is exact: each name is still declared in exactly its files', () => {
  assert.ok(declared.size > 500, `only ${declared.size} names found`);
  const stale = TWICE.filter((t) => (declared.get(t.name) ?? []).join() !== [...t.files].sort().join());
  assert.deepEqual(stale.map((t) => `${t.name}: now in ${(declared.get(t.name) ?? []).join(', ') || 'no file'} (update or remove it)`), []);
});
