// `iqm-tools`: the command line of ../shared/docs/CLI.md. Each sub-command lives in its own
// module and returns its exit status; this file only dispatches.
import { runCheck } from './check';
import { runDiff } from './diff';
import { runCompile } from './compile';
import { runConvert } from './convert';
import { runInfo } from './info';
import { runLint } from './lint';
import { runSample } from './sample';
import { runView } from './view/command';
import { setWasmEnabled } from '../core/wasm';
import { POOL_WORKER_COMMAND, runPoolWorker } from './compileEachPool';

type Command = (args: string[]) => Promise<number> | number;

/** package.json's version, put in by the build (esbuild.mjs). */
declare const IQM_TOOLS_VERSION: string;

const commands: Record<string, { run: Command; usage: string }> = {
  check: { run: runCheck, usage: 'check FILE ... [--json] [--config F]  validate IQM, MD3 and DPM models (every problem, with codes and byte offsets), IQE, MD5, SMD, OBJ and glTF files, and the .framegroups, animation.cfg, .skin, .shader beside a model, as the editor does' },
  compile: { run: runCompile, usage: 'compile IN [ANIM ...] [-o OUT.iqm|FOLDER/] [options]  compile IQE, MD5, SMD, OBJ or glTF/GLB to IQM (compile --help)' },
  convert: { run: runConvert, usage: 'convert IN [ANIM ...] [-o OUT.iqe|OUT.glb|OUT.gltf]  any model as IQE text that compiles back to it, or as glTF 2.0 (convert --help)' },
  diff: { run: runDiff, usage: 'diff A B [--json] [--tolerance T]  semantic differences between two models (exit 1 if any)' },
  info: { run: runInfo, usage: 'info FILE [--json] [--engine NAME]  summarise an IQM, MD3, DPM or IQE file, or a source as the IQM it compiles to (and an engine\'s findings)' },
  lint: { run: runLint, usage: 'lint FILE... --engine NAME[,NAME] [--json]  what an engine would refuse or mangle (exit 1 if any)' },
  sample: { run: runSample, usage: 'sample FILE --frame F [--json] vertex positions and joint matrices at a frame' },
  view: { run: runView, usage: 'view FILE... [--port N] [--no-open]  the model preview in the browser, served from 127.0.0.1 (view --help)' },
};

function usage(): string {
  const lines = Object.values(commands).map((c) => `  iqm-tools ${c.usage}`);
  return ['usage:', ...lines, '  iqm-tools --version', ''].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  // IQM_TOOLS_WASM=0: the JavaScript versions of the WebAssembly kernels (the same results; for comparisons).
  if (process.env.IQM_TOOLS_WASM === '0') setWasmEnabled(false);
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    (name === undefined ? process.stderr : process.stdout).write(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`iqm-tools ${IQM_TOOLS_VERSION} (node ${process.versions.node})\n`);
    return 0;
  }
  if (name === POOL_WORKER_COMMAND) return runPoolWorker();
  const command = commands[name];
  if (!command) {
    process.stderr.write(`iqm-tools: unknown command '${name}'\n${usage()}`);
    return 2;
  }
  return command.run(rest);
}

// A reader that closes the pipe (`iqm-tools check big.iqe | head`) ends the command quietly, as
// Unix tools end on SIGPIPE (which node ignores, so writes fail with EPIPE instead): status 141,
// 128 + SIGPIPE, what a shell reports for such a tool. The handler is added when a command first
// uses the stream: making process.stdout and process.stderr loads node's stream modules (and net
// for a pipe), which a compile that writes through cli/write.ts does not need.
const EPIPE_STATUS = 141;
function quietOnEpipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EPIPE_STATUS);
    throw error;
  });
}
for (const name of ['stdout', 'stderr'] as const) {
  const descriptor = Object.getOwnPropertyDescriptor(process, name);
  const make = descriptor?.get;
  if (!make || !descriptor.configurable) {
    quietOnEpipe(process[name]);
    continue;
  }
  let stream: NodeJS.WriteStream | undefined;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: descriptor.enumerable,
    get(): NodeJS.WriteStream {
      if (!stream) {
        stream = make.call(process) as NodeJS.WriteStream;
        quietOnEpipe(stream);
      }
      return stream;
    },
  });
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    process.stderr.write(`iqm-tools: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 3;
  },
);
