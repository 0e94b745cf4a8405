// esbuild bundles imported CSS into dist/webview.css; the import has no value.
declare module '*.css';
