// How the Node host's language server process is started: by the extension
// (client/node/languageClient.ts) and, to measure what users get, by bench/lsp-edit.ts and the
// transport test. glibc's malloc is asked for transparent huge pages as the command line's is
// (node/hugePages.ts): the server takes a whole document's text in one message, and on a VM where
// a page's first touch is dear the 95 MB didOpen was read and decoded in 1.1 s with 4 KB pages
// (issue 35). Unlike the command line it keeps V8's concurrent compiles (no EXIT_SAFE_V8_FLAGS):
// compiled on the main thread, a hot function held the requests after a keystroke 50-100 ms on a
// 24 MB document (issue 35); it ends without waiting for them another way (server/node/main.ts).
import { withHugePages } from './hugePages';

/** The server process's environment: `env` (the extension host's) with huge pages asked for. */
export function serverEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return withHugePages(env);
}
