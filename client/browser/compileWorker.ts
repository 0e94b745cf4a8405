// The browser's compile worker (dist/web/compileWorker.js, a Web Worker): core/compile on the texts
// of open documents, or the bytes the extension host read through workspace.fs. The per-frame bounds run on this one thread: the page
// is not cross-origin isolated, so there is no SharedArrayBuffer to share them with another.
import type { CompileRequest } from '../../core/host/compileProtocol';
import { compileRequest, transferOf } from '../../core/host/compileRun';

const worker = self as DedicatedWorkerGlobalScope;

worker.onmessage = async (event: MessageEvent<CompileRequest>) => {
  const reply = await compileRequest(event.data);
  worker.postMessage(reply, transferOf(reply));
};
