// The `process` global in the web worker bundle of the suite (esbuild inject): the npm shim, which
// the npm `assert` and `util` packages need. The extension's own bundles get none.
import process from 'process/browser.js';
export { process };
