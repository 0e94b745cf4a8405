// The host <-> webview message protocol (core/protocol.ts), the page's Content-Security-Policy
// (client/preview/html.ts) and the view state that persists across reloads.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNever, isHostToWebview, isWebviewToHost, type HostToWebview, type WebviewToHost } from '../../core/protocol';
import { defaultViewState, restoreViewState } from '../../core/viewState';
import { contentSecurityPolicy, makeNonce, previewHtml } from '../../client/preview/html';

const load: HostToWebview = {
  type: 'load',
  fileName: 'a.iqm',
  path: '/w/a.iqm',
  bytes: new ArrayBuffer(8),
  sidecars: { framegroups: null, animationCfg: null, skins: [] },
  playerParts: [],
  reload: false,
};

test('every host message kind is recognised; malformed ones are rejected', () => {
  const good: HostToWebview[] = [
    load,
    { type: 'hostError', message: 'gone' },
    { type: 'textures', generation: 1, results: [{ key: '0', source: { kind: 'none' }, via: '', tried: ['/a.tga'], twoSided: false, alphaTest: null }] },
    { ...load, compiled: { version: 7, unsaved: true, milliseconds: 12 } },
    { type: 'compileState', state: 'compiling', version: 8, unsaved: true, problem: null },
    { type: 'compileState', state: 'failed', version: 9, unsaved: true, problem: { message: 'x', line: 3, column: 4, count: 2 } },
    { type: 'compileState', state: 'saved', version: 9, unsaved: false, problem: null },
    { type: 'playClip', name: 'run', play: true },
    { type: 'playClip', name: 'groupified_2_anim', firstFrame: 40, play: false },
    { type: 'highlight', target: null },
    { type: 'highlight', target: { kind: 'joint', joint: 3 } },
    { type: 'highlight', target: { kind: 'vertices', indices: [0, 7, 9] } },
    { type: 'highlight', target: { kind: 'triangles', indices: [12] } },
    { type: 'validation', report: { format: 'iqm', issues: [], omitted: {}, counts: { error: 0, warning: 0, information: 0, hint: 0 }, notes: [] } },
  ];
  for (const m of good) assert.ok(isHostToWebview(m), m.type);
  const bad: unknown[] = [
    null,
    42,
    'load',
    {},
    { type: 'nope' },
    { ...load, bytes: new Uint8Array(8) }, // must be an ArrayBuffer (transferred, not copied element-wise)
    { ...load, fileName: 3 },
    { type: 'hostError' },
    { type: 'textures', generation: '1', results: [] },
    { type: 'compileState', state: 'done', version: 1, unsaved: false, problem: null },
    { type: 'playClip', name: 3, play: true },
    { type: 'playClip', name: 'run', firstFrame: -1, play: true },
    { type: 'playClip', name: 'run' },
    { type: 'highlight' },
    { type: 'highlight', target: { kind: 'joint', joint: 1.5 } },
    { type: 'highlight', target: { kind: 'vertices', indices: [0, -1] } },
    { type: 'highlight', target: { kind: 'edges', indices: [0] } },
    { type: 'validation' },
    { type: 'validation', report: { format: 'iqm', issues: 'none', omitted: {}, counts: {}, notes: [] } },
  ];
  for (const m of bad) assert.ok(!isHostToWebview(m), JSON.stringify(m));
});

test('every webview message kind is recognised; malformed ones are rejected', () => {
  const good: WebviewToHost[] = [
    { type: 'ready' },
    { type: 'textureRequest', generation: 2, requests: [{ key: '0', names: ['Body.tga'], skin: null }] },
    { type: 'rendered', ok: true, format: 'iqm', error: null, vertices: 3, triangles: 1, joints: 0, firstFrameMs: 12 },
    { type: 'log', level: 'warn', message: 'x' },
    { type: 'convertToIqe' },
    { type: 'exportGltf' },
    { type: 'openSource', line: 4, column: 0 },
    { type: 'saveImage', png: new ArrayBuffer(4), name: 'a.png' },
    { type: 'picked', mesh: 1, triangle: 40, vertices: [3, 4, 5] },
    { type: 'clipState', clips: ['idle', 'run'], clip: 'run', playing: true, frame: null },
    { type: 'clipState', clips: ['idle', 'run'], clip: 'run', playing: false, frame: 2 },
    { type: 'clipState', clips: [], clip: null, playing: false, frame: null },
    { type: 'choosePartner', name: 'guy.iqm' },
    { type: 'choosePartner', name: '' },
    { type: 'timeline', stamps: { scriptStart: 1764900000000.5, firstFrame: 1764900000100 } },
    { type: 'timeline', stamps: {} },
  ];
  for (const m of good) assert.ok(isWebviewToHost(m), m.type);
  const bad: unknown[] = [
    undefined,
    { type: 'textureRequest', generation: 2, requests: [{ key: 0, names: [] }] },
    { type: 'textureRequest', generation: 2, requests: [{ key: '0', names: [1] }] },
    { type: 'log', level: 'debug', message: 'x' },
    { type: 'rendered' },
    { type: 'load' }, // a host message is not a webview message
    { type: 'openSource', line: -1, column: 0 },
    { type: 'openSource', line: 1.5, column: 0 },
    { type: 'saveImage', png: 'data:', name: 'a.png' },
    { type: 'picked', mesh: 0, triangle: 1, vertices: [1, 2] },
    { type: 'picked', mesh: -1, triangle: 1, vertices: [1, 2, 3] },
    { type: 'clipState', clips: ['idle', 3], clip: 'idle', playing: true },
    { type: 'clipState', clips: [], clip: undefined, playing: false, frame: null },
    { type: 'clipState', clips: ['idle'], clip: 'idle', playing: false, frame: -1 },
    { type: 'clipState', clips: ['idle'], clip: 'idle', playing: false },
    { type: 'choosePartner' },
    { type: 'timeline' },
    { type: 'timeline', stamps: [1, 2] },
    { type: 'timeline', stamps: { firstFrame: 'soon' } },
    { type: 'timeline', stamps: { firstFrame: Number.NaN } },
  ];
  for (const m of bad) assert.ok(!isWebviewToHost(m), JSON.stringify(m));
});

test('dispatch over the unions is exhaustive (assertNever throws on anything unhandled)', () => {
  const handled: string[] = [];
  const dispatch = (m: WebviewToHost) => {
    switch (m.type) {
      case 'ready':
      case 'textureRequest':
      case 'rendered':
      case 'log':
      case 'convertToIqe':
      case 'exportGltf':
      case 'openSource':
      case 'saveImage':
      case 'picked':
      case 'clipState':
      case 'choosePartner':
      case 'timeline':
      case 'viewChanged':
        handled.push(m.type);
        break;
      default:
        assertNever(m);
    }
  };
  dispatch({ type: 'ready' });
  dispatch({ type: 'log', level: 'info', message: '' });
  assert.deepEqual(handled, ['ready', 'log']);
  assert.throws(() => dispatch({ type: 'bogus' } as unknown as WebviewToHost), /unexpected message/);
});

test('view state: defaults, a round trip through JSON, and damaged state falling back field by field', () => {
  const s = defaultViewState();
  s.camera = { yaw: 1, pitch: 0.2, distance: 7, target: [1, 2, 3] };
  s.clip = 3;
  s.time = 1.25;
  s.wireframe = true;
  s.winding = 'flipped';
  s.selectedJoint = 12;
  assert.deepEqual(restoreViewState(JSON.parse(JSON.stringify(s))), s);
  assert.deepEqual(restoreViewState(undefined), defaultViewState());
  const damaged = restoreViewState({ clip: 'x', time: NaN, speed: 2, winding: 'sideways', camera: { yaw: 1, pitch: 0, distance: -1, target: [0, 0] } });
  assert.equal(damaged.clip, 0);
  assert.equal(damaged.time, 0);
  assert.equal(damaged.speed, 2);
  assert.equal(damaged.winding, 'file');
  assert.equal(damaged.camera, null);
});

test('the page CSP: default-src none, scripts only by nonce, no unsafe-eval/unsafe-inline, images and styles from the webview source', () => {
  const csp = contentSecurityPolicy('https://file+.vscode-resource.vscode-cdn.net', 'abc123');
  assert.match(csp, /^default-src 'none'/);
  assert.match(csp, /script-src 'nonce-abc123'/);
  assert.match(csp, /img-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net/);
  assert.match(csp, /style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net/);
  assert.match(csp, /font-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net/);
  assert.match(csp, /connect-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net(;|$)/);
  assert.doesNotMatch(csp, /unsafe|blob:|data:|\*/);
  const html = previewHtml({ cspSource: 'vscode-src', nonce: 'N0nce', scriptUri: 'vscode-src/dist/webview.js', styleUri: 'vscode-src/dist/webview.css' });
  assert.match(html, /<script nonce="N0nce" src="vscode-src\/dist\/webview.js"><\/script>/);
  assert.match(html, /<link rel="stylesheet" href="vscode-src\/dist\/webview.css">/);
  assert.doesNotMatch(html, /style=|<style|onload=|onclick=/, 'no inline styles or handlers');
  const nonce = makeNonce((n) => new Uint8Array(n).map((_, i) => i * 37));
  assert.match(nonce, /^[A-Za-z0-9]{32}$/);
});
