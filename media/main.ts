// Webview entry (esbuild → dist/webview.js): the `ready` handshake and message dispatch.

// First: its body stamps the bundle's start (the imports below are evaluated after it).
import { timeline } from './timeline';
import { assertNever, isHostToWebview, type HostToWebview, type WebviewToHost } from '../core/protocol';
import { ViewerWithHooks } from './testHooks';
import type { HostApi } from './viewer';
import '@vscode/codicons/dist/codicon.css';
import './styles.css';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void; getState(): unknown; setState(state: unknown): void };

timeline.mark('bundleEvaluated');
const vscode = acquireVsCodeApi();
const host: HostApi = {
  postMessage: (m: WebviewToHost) => vscode.postMessage(m),
  getState: () => vscode.getState(),
  setState: (s) => vscode.setState(s),
};

const viewer = new ViewerWithHooks(document.body, host);
timeline.mark('viewerBuilt');

function dispatch(message: HostToWebview): void {
  switch (message.type) {
    case 'load':
      timeline.mark('loadReceived');
      viewer.load(message);
      break;
    case 'hostError':
      if (message.fileName !== undefined) viewer.sourceFailed(message.fileName, message.message);
      else viewer.showError('The file could not be read', message.message, null);
      break;
    case 'textures':
      timeline.mark('texturesReceived');
      void viewer.applyTextures(message.generation, message.results);
      break;
    case 'compileState':
      viewer.compileState(message);
      break;
    case 'playClip':
      viewer.playClip(message);
      break;
    case 'highlight':
      viewer.highlight(message.target);
      break;
    case 'validation':
      viewer.validated(message.report);
      break;
    case 'pickedSource':
      viewer.pickedSource(message);
      break;
    case 'comparison':
      viewer.comparison(message);
      break;
    case 'comparisonEnded':
      viewer.comparisonEnded();
      break;
    case 'syncView':
      viewer.syncView(message.view);
      break;
    default:
      assertNever(message);
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const data = event.data;
  if (!isHostToWebview(data)) return;
  try {
    dispatch(data);
  } catch (e) {
    const text = e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e);
    viewer.showError('The preview failed', text, null);
    host.postMessage({ type: 'log', level: 'error', message: text });
  }
});

// Test and benchmark hook (the harness page reads it; harmless in VS Code).
(window as unknown as { iqmPreview: ViewerWithHooks }).iqmPreview = viewer;

timeline.mark('readyPosted');
host.postMessage({ type: 'ready' });
