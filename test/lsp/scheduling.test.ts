// Timing: a lone edit is validated at once (leading edge), a burst of edits is debounced and only
// the latest version is published, and stale validations of a big document are cancelled.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bigIqe, MINIMAL_IQE, problemCodes, range, single, TestServer } from './helpers/server';
import { DebugMemoryRequest } from '../../core/lspMethods';

describe('lsp: scheduling', () => {
  it('a burst of edits publishes the latest version only', async () => {
    const debounceMs = 1_500; // generous, so that a slow machine still sends the burst within it
    const server = await TestServer.start({ diagnostics: { debounceMs } });
    try {
      const uri = 'file:///test/burst.iqe';
      await server.open(uri, MINIMAL_IQE, 1);
      await server.waitForVersion(uri, 1);
      const since = server.mark();
      // Edits right after the open's validation fall within the debounce window: all one burst.
      // Version 2..11 type "fa 0 1 2" -> alternate bad/good digits; the last one (11) is bad.
      for (let version = 2; version <= 11; version++) {
        await server.change(uri, version, [{ range: range(6, 7, 8), text: version % 2 ? '8' : '2' }]);
      }
      const last = await server.waitForVersion(uri, 11);
      single(last.diagnostics, 'face-index-range');
      const versions = server.published.slice(since).filter((p) => p.uri === uri).map((p) => p.version);
      assert.deepEqual(versions, [11], `published versions: ${versions.join(',')}`);
    } finally {
      await server.stop();
    }
  });

  it('an edit right after the open falls in its window and waits for the debounce', async () => {
    const debounceMs = 1_000;
    const server = await TestServer.start({ diagnostics: { debounceMs } });
    try {
      const uri = 'file:///test/window.iqe';
      await server.open(uri, MINIMAL_IQE, 1);
      await server.waitForVersion(uri, 1);
      const start = performance.now();
      await server.change(uri, 2, [{ range: range(6, 7, 8), text: '5' }]);
      const published = await server.waitForVersion(uri, 2, debounceMs + 5_000);
      const elapsed = performance.now() - start;
      assert.ok(elapsed >= debounceMs - 50, `the edit was debounced (${elapsed.toFixed(0)} ms)`);
      single(published.diagnostics, 'face-index-range');
    } finally {
      await server.stop();
    }
  });

  it('an edit after a quiet period is immediate and a following one is debounced', async () => {
    const debounceMs = 1_000;
    const server = await TestServer.start({ diagnostics: { debounceMs } });
    try {
      const uri = 'file:///test/quiet.iqe';
      await server.open(uri, MINIMAL_IQE, 1);
      await server.waitForVersion(uri, 1);
      // Wait (for an event, not a fixed time) until the document has been quiet for the debounce:
      // a request round trip repeated until enough time has passed.
      const opened = performance.now();
      while (performance.now() - opened < debounceMs * 1.2) await server.request(DebugMemoryRequest.method);
      const start = performance.now();
      await server.change(uri, 2, [{ range: range(6, 7, 8), text: '5' }]);
      await server.waitForVersion(uri, 2);
      const leading = performance.now() - start;
      assert.ok(leading < debounceMs, `leading edge took ${leading.toFixed(0)} ms`);
      const start3 = performance.now();
      await server.change(uri, 3, [{ range: range(6, 7, 8), text: '2' }]);
      const third = await server.waitForVersion(uri, 3);
      const trailing = performance.now() - start3;
      assert.ok(trailing >= debounceMs - 5, `the second edit waited for the debounce (${trailing.toFixed(0)} ms)`);
      assert.deepEqual(problemCodes(third.diagnostics), []);
    } finally {
      await server.stop();
    }
  });

  it('rapid edits to a big document: stale validations are cancelled, versions never go back', async (t) => {
    const server = await TestServer.start({ diagnostics: { debounceMs: 0 } });
    try {
      const uri = 'file:///test/big-rapid.iqe';
      const text = bigIqe(6 * 1024 * 1024);
      await server.open(uri, text, 1);
      // Do not wait for version 1: edit while it is still being parsed.
      const edits = 30;
      for (let version = 2; version <= edits + 1; version++) {
        const bad = version === edits + 1;
        await server.change(uri, version, [{ range: range(3, 3, 4), text: bad ? 'x' : String(version % 10) }]);
      }
      const last = await server.waitForVersion(uri, edits + 1, 60_000);
      assert.equal(single(last.diagnostics, 'number-invalid').range.start.line, 3, 'the last edit (a letter in a number) is reported');
      const versions = server.published.filter((p) => p.uri === uri).map((p) => p.version ?? -1);
      for (let i = 1; i < versions.length; i++) assert.ok(versions[i] > versions[i - 1], `versions in order: ${versions.join(',')}`);
      t.diagnostic(`published versions: ${versions.join(',')}`);
      assert.ok(versions.length < edits, `most of the ${edits + 1} versions were superseded (${versions.join(',')})`);
    } finally {
      await server.stop();
    }
  });
});
