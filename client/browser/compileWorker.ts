// The browser's compile worker (dist/web/compileWorker.js, a Web Worker): core/compile on texts the
// extension host read through workspace.fs. The per-frame bounds run on this one thread: the page
// is not cross-origin isolated, so there is no SharedArrayBuffer to share them with another.
import { textSource } from '../../core/compile/index';
import type { CompileRequest } from '../compile/protocol';
import { runCompile, transferOf } from '../compile/run';

const worker = self as DedicatedWorkerGlobalScope;

worker.onmessage = (event: MessageEvent<CompileRequest>) => {
  const reply = runCompile(event.data, (source) => {
    if (!('text' in source)) throw new Error('the browser compile worker gets texts, not paths');
    return textSource(source.text);
  });
  worker.postMessage(reply, transferOf(reply));
};
