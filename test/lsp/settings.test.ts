// iqmTools.diagnostics.* settings pulled with workspace/configuration and refreshed on
// workspace/didChangeConfiguration: ignore, severity overrides, maxProblems.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { codes, MINIMAL_IQE, TestServer } from './helpers/server';

const WITH_UNKNOWN = `${MINIMAL_IQE}foo 1 2\n`;

/** A document with `n` bad face indices (one per face line). */
function manyBadFaces(n: number): string {
  const lines = ['# Inter-Quake Export', 'mesh m', 'material mat', 'vp 0 0 0', 'vp 1 0 0', 'vp 0 1 0', 'fa 0 1 2'];
  for (let i = 0; i < n; i++) lines.push(`fa 0 1 ${100 + i}`);
  return `${lines.join('\n')}\n`;
}

describe('lsp: settings', () => {
  it('settings are asked for per document, and ignore / severity apply', async () => {
    const server = await TestServer.start({ diagnostics: { debounceMs: 0, ignore: ['unknown-command'] } });
    try {
      const uri = 'file:///test/settings.iqe';
      await server.open(uri, WITH_UNKNOWN, 1);
      const first = await server.waitForVersion(uri, 1);
      assert.deepEqual(first.diagnostics, []);
      assert.ok(server.configurationRequests.includes(uri), 'workspace/configuration carries the document as scope');

      // Settings change: the open document is validated again with the new settings.
      let since = server.mark();
      await server.setSettings({ debounceMs: 0, severity: { 'unknown-command': 'error' } });
      const escalated = await server.waitForDiagnostics(uri, (p) => p.diagnostics.length > 0, { since });
      assert.deepEqual(codes(escalated.diagnostics), ['unknown-command']);
      assert.equal(escalated.diagnostics[0].severity, DiagnosticSeverity.Error);
      assert.equal(escalated.version, 1);

      since = server.mark();
      await server.setSettings({ debounceMs: 0, severity: { 'unknown-command': 'hint' } });
      const hinted = await server.waitForDiagnostics(uri, () => true, { since });
      assert.equal(hinted.diagnostics[0].severity, DiagnosticSeverity.Hint);

      // Back to defaults: a warning.
      since = server.mark();
      await server.setSettings({ debounceMs: 0 });
      const defaults = await server.waitForDiagnostics(uri, () => true, { since });
      assert.equal(defaults.diagnostics[0].severity, DiagnosticSeverity.Warning);
    } finally {
      await server.stop();
    }
  });

  it('maxProblems caps the list and adds one entry that counts the rest', async () => {
    const server = await TestServer.start({ diagnostics: { debounceMs: 0, maxProblems: 5 } });
    try {
      const uri = 'file:///test/many.iqe';
      await server.open(uri, manyBadFaces(20), 1);
      const published = await server.waitForVersion(uri, 1);
      assert.equal(published.diagnostics.length, 6, codes(published.diagnostics).join());
      assert.deepEqual(codes(published.diagnostics.slice(0, 5)), Array(5).fill('face-index-range'));
      const more = published.diagnostics[5];
      assert.equal(more.code, 'too-many-problems');
      assert.match(more.message, /15/, 'the extra entry says how many were left out');

      // Without a cap setting, the default (1000) lets all 20 through.
      const since = server.mark();
      await server.setSettings({ debounceMs: 0 });
      const all = await server.waitForDiagnostics(uri, () => true, { since });
      assert.equal(all.diagnostics.length, 20);
    } finally {
      await server.stop();
    }
  });

  it('a client without workspace/configuration gets the defaults, then pushed settings', async () => {
    const server = await TestServer.start({ configuration: false });
    try {
      const uri = 'file:///test/push.iqe';
      await server.open(uri, WITH_UNKNOWN, 1);
      const first = await server.waitForVersion(uri, 1);
      assert.deepEqual(codes(first.diagnostics), ['unknown-command']);
      assert.equal(server.configurationRequests.length, 0);
      const since = server.mark();
      await server.setSettings({ ignore: ['unknown-command'] });
      const second = await server.waitForDiagnostics(uri, () => true, { since });
      assert.deepEqual(second.diagnostics, []);
    } finally {
      await server.stop();
    }
  });

  it('a configuration change that leaves the diagnostics alone publishes nothing new (cached per version)', async () => {
    const server = await TestServer.start({ diagnostics: { debounceMs: 0 } });
    try {
      const uri = 'file:///test/cached.iqe';
      await server.open(uri, WITH_UNKNOWN, 1);
      await server.waitForVersion(uri, 1);
      const since = server.mark();
      const asked = server.configurationRequests.length;
      await server.setSettings({ debounceMs: 20 });
      // Something to wait for that comes after the re-check: another document's diagnostics.
      const probe = 'file:///test/cached-probe.iqe';
      await server.open(probe, MINIMAL_IQE, 1);
      await server.waitForVersion(probe, 1);
      assert.ok(server.configurationRequests.length > asked, 'the settings were asked for again');
      assert.equal(server.published.slice(since).filter((p) => p.uri === uri).length, 0);
    } finally {
      await server.stop();
    }
  });
});

describe('lsp: iqmTools.engine', () => {
  const HALF_TEXCOORDS = ['# Inter-Quake Export', 'vertexarray texcoord half 2', 'mesh m', 'vp 0 0 0', 'vt 0 0', 'vp 1 0 0', 'vt 1 0', 'vp 0 1 0', 'vt 0 1', 'fa 0 1 2', ''].join('\n');

  it("adds the engine's findings at their line, and drops them when the setting is cleared", async () => {
    const server = await TestServer.start({ engine: 'ioquake3' });
    try {
      const uri = 'file:///test/engine.iqe';
      await server.open(uri, HALF_TEXCOORDS, 1);
      const first = await server.waitForVersion(uri, 1);
      const finding = first.diagnostics.find((d) => d.code === 'array-format');
      assert.ok(finding, codes(first.diagnostics).join());
      assert.equal(finding.range.start.line, 1);
      assert.equal(finding.severity, DiagnosticSeverity.Error);
      assert.match(finding.message, /^ioquake3: vertexarray texcoord is half × 2.*\. A vertex array .*tr_model_iqm\.c:272-305 @2ca05943\)$/);

      // Several engines; DarkPlaces skips the array, so the model has no texcoords.
      let since = server.mark();
      await server.setSettings({ debounceMs: 0 }, 'darkplaces, raylib');
      const both = await server.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'array-missing'), { since });
      assert.deepEqual(both.diagnostics.filter((d) => d.code !== 'engine-compat').map((d) => d.code).sort(), ['array-misread', 'array-missing']);

      since = server.mark();
      await server.setSettings({ debounceMs: 0 }, '');
      const none = await server.waitForDiagnostics(uri, () => true, { since });
      assert.deepEqual(none.diagnostics.filter((d) => /^array-/.test(String(d.code))), []);

      since = server.mark();
      await server.setSettings({ debounceMs: 0 }, 'quake9');
      const unknown = await server.waitForDiagnostics(uri, (p) => p.diagnostics.some((d) => d.code === 'engine-unknown'), { since });
      assert.match(unknown.diagnostics.find((d) => d.code === 'engine-unknown')!.message, /"quake9"/);
    } finally {
      await server.stop();
    }
  });
});
