// Set by scripts/build-vscode-tests.mjs (esbuild `define`) in each bundle of the in-editor suite.
/** The extension host the bundle is for: 'node' (out/test-vscode/) or 'web' (out/test-vscode-web/, the web worker host). */
declare const IQM_TEST_HOST: 'node' | 'web';
