// Which extension host runs the extension: the suite is built once per host (IQM_TEST_HOST,
// scripts/build-vscode-tests.mjs), and each run shows where it ran. The web run must be the
// browser's web worker extension host, with the `browser` entry: the extension reports its
// Platform and that it has no Node `process`, and the tests (in the same host) see a
// DedicatedWorkerGlobalScope.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../client/extension';
import { activeExtension, TEST_HOST } from './helpers';

suite('extension host', () => {
  test(`the extension runs in the ${TEST_HOST === 'web' ? 'web worker' : 'Node'} extension host`, async () => {
    const extension = await activeExtension();
    const api = extension.exports as ExtensionApi;
    const scope = (globalThis as { constructor?: { name?: string } }).constructor?.name;
    console.log(`[host] extension host: ${api.host}, process: ${api.hasProcess}, global scope: ${scope}, extensionKind: ${vscode.ExtensionKind[extension.extensionKind]}, uiKind: ${vscode.UIKind[vscode.env.uiKind]}`);
    assert.equal(api.host, TEST_HOST, 'the entry the extension host loaded');
    if (TEST_HOST === 'web') {
      assert.equal(api.hasProcess, false, 'the extension sees Node\'s process global: not the web worker host');
      assert.equal(scope, 'DedicatedWorkerGlobalScope');
      assert.equal(extension.extensionKind, vscode.ExtensionKind.UI, 'a web extension runs as a UI extension');
      assert.equal(vscode.env.uiKind, vscode.UIKind.Web);
    } else {
      assert.equal(api.hasProcess, true);
      assert.notEqual(scope, 'DedicatedWorkerGlobalScope');
    }
  });
});
