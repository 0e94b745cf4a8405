// Timing: a lone edit is validated at once (leading edge), the edits of a burst wait until debounceMs
// after the validation before them began and only the latest version is published, and stale
// validations of a big document are cancelled.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bigIqe, MINIMAL_IQE, problemCodes, range, single, TestServer } from './helpers/server';
import { DebugMemoryRequest } from '../../core/lspMethods';
import { yieldToEventLoop } from '../../server/scheduler';

describe('lsp: scheduling', () => {
  it('between two slices of work, a message the connection queued meanwhile is handled first', async () => {
    // vscode-jsonrpc handles each arrived message in a setImmediate of its own; one queued after a
    // slice ended must run before the next slice (else a request waited a whole slice longer).
    const order: string[] = [];
    const nextSlice = yieldToEventLoop().then(() => order.push('next slice'));
    setImmediate(() => order.push('message'));
    await nextSlice;
    assert.deepEqual(order, ['message', 'next slice']);
  });

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
      // The open's validation begins after this; the edit's not before debounceMs after that.
      const opened = performance.now();
      await server.open(uri, MINIMAL_IQE, 1);
      await server.waitForVersion(uri, 1);
      await server.change(uri, 2, [{ range: range(6, 7, 8), text: '5' }]);
      const published = await server.waitForVersion(uri, 2, debounceMs + 5_000);
      const elapsed = performance.now() - opened;
      assert.ok(elapsed >= debounceMs - 5, `the edit was debounced (${elapsed.toFixed(0)} ms after the open was sent)`);
      single(published.diagnostics, 'face-index-range');
    } finally {
      await server.stop();
    }
  });

  it('an edit after a quiet period is immediate and a following one waits until debounceMs after its validation began', async () => {
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
      await server.change(uri, 3, [{ range: range(6, 7, 8), text: '2' }]);
      const third = await server.waitForVersion(uri, 3);
      // Version 2's validation began after `start`; version 3's not before debounceMs after that.
      const throttled = performance.now() - start;
      assert.ok(throttled >= debounceMs - 5, `the second edit waited for the debounce (${throttled.toFixed(0)} ms after the first was sent)`);
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

  it('while typing goes on, validations keep coming, at most one per debounceMs', async () => {
    const debounceMs = 200;
    const server = await TestServer.start({ diagnostics: { debounceMs } });
    try {
      const uri = 'file:///test/typing.iqe';
      await server.open(uri, MINIMAL_IQE, 1);
      await server.waitForVersion(uri, 1);
      const since = server.mark();
      // Typing for 2 s, a keystroke every 20 ms: a trailing debounce would publish nothing until it stops.
      const keystrokes = 100;
      const start = performance.now();
      for (let k = 0; k < keystrokes; k++) {
        await new Promise((resolve) => setTimeout(resolve, start + 20 * k - performance.now()));
        await server.change(uri, k + 2, [{ range: range(6, 7, 8), text: k % 2 ? '2' : '5' }]);
      }
      const typedFor = performance.now() - start;
      const duringTyping = server.published.slice(since).filter((p) => p.uri === uri).length;
      await server.waitForVersion(uri, keystrokes + 1);
      const versions = server.published.slice(since).filter((p) => p.uri === uri).map((p) => p.version ?? -1);
      assert.ok(duringTyping >= 2, `published while typing: ${versions.join(',')}`);
      // The validations are at least debounceMs apart (a slow machine only makes them fewer).
      assert.ok(versions.length <= Math.ceil(typedFor / debounceMs) + 2, `${versions.length} publishes in ${typedFor.toFixed(0)} ms: ${versions.join(',')}`);
      for (let i = 1; i < versions.length; i++) assert.ok(versions[i] > versions[i - 1], `versions in order: ${versions.join(',')}`);
    } finally {
      await server.stop();
    }
  });

  it('a hover during the first parse of a large document is answered from its parsed part, before the diagnostics', async () => {
    const server = await TestServer.start();
    try {
      const uri = 'file:///test/big-hover.iqe';
      // A blend weight naming joint 0, which the last line defines: 12 MB further on.
      const header = '# Inter-Quake Export\n';
      const text = `${header}vb 0 1\n${bigIqe(12 * 1024 * 1024).slice(header.length)}joint "late" -1\n`;
      const hover = () => server.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 3 } });
      await server.open(uri, text, 1);
      // Sent right after the open: the parse (in slices) has not reached the joint, and the answer
      // does not wait for it. It says nothing rather than "no such joint".
      const early = await hover();
      assert.equal(early, null, `hover during the parse: ${JSON.stringify(early)}`);
      assert.equal(server.published.some((p) => p.uri === uri), false, 'the hover was answered before the first diagnostics');
      // The outline waits for the whole parse (an outline of a part would be wrong), and is whole.
      const symbols = await server.request<{ detail: string }[]>('textDocument/documentSymbol', { textDocument: { uri } }, 60_000);
      const vertices = text.split('\nvp ').length - 1;
      assert.equal(symbols.find((s) => s.detail.includes('vertices'))?.detail, `material mat, ${vertices} vertices, ${vertices - vertices / 500} faces`);
      await server.waitForVersion(uri, 1, 60_000);
      const late = await hover();
      assert.match(late?.contents.value ?? '', /joint 0 `late`/);
    } finally {
      await server.stop();
    }
  });
});
