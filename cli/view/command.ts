// `iqm-tools view FILE... [--port N] [--no-open] [--engine NAME]` (../shared/docs/CLI.md): the
// model preview without VS Code. Serves the preview on 127.0.0.1 (server.ts), opens the default
// browser on it (or prints the address), and runs until Ctrl+C.

import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { startViewServer } from './server';

const USAGE = `usage: iqm-tools view FILE... [--port N] [--no-open] [--engine NAME[,NAME]]
  Shows the models in the browser with the preview of the VS Code extension, served from
  127.0.0.1 (a free port unless --port; the address carries a random token). Several files: a
  list to switch between, and Compare for two. A file that changes on disk is shown again.
  --port N       listen on port N
  --no-open      print the address only (do not start a browser)
  --engine NAME  report what these engines would refuse or change (as iqm-tools lint)
  Ctrl+C stops the server.
The browser started is $BROWSER when set, else the system's (xdg-open, open, start).
`;

interface ViewArgs {
  files: string[];
  port: number;
  open: boolean;
  engines: string;
}

export function parseViewArgs(args: readonly string[]): ViewArgs | { error: string } | 'help' {
  const out: ViewArgs = { files: [], port: 0, open: true, engines: '' };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => inline ?? args[++i];
    if (a === '-h' || a === '--help') return 'help';
    else if (a === '--no-open') out.open = false;
    else if (flag === '--port') {
      const text = value();
      const port = Number(text);
      if (text === undefined || !/^\d+$/.test(text) || port < 1 || port > 65535) return { error: `--port needs a port number from 1 to 65535${text === undefined ? '' : `, not '${text}'`}` };
      out.port = port;
    } else if (flag === '--engine') {
      const text = value();
      if (text === undefined) return { error: '--engine needs a value' };
      out.engines = text;
    } else if (a.startsWith('-') && a !== '-') return { error: `unknown option ${a}` };
    else out.files.push(a);
  }
  if (out.files.length === 0) return { error: 'no FILE given' };
  return out;
}

/** The command that opens a URL in the user's browser: $BROWSER, else the system's. */
function opener(url: string): { command: string; args: string[] } {
  const browser = process.env.BROWSER;
  if (browser) return { command: browser, args: [url] };
  if (process.platform === 'darwin') return { command: 'open', args: [url] };
  if (process.platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url.replace(/&/g, '^&')] };
  return { command: 'xdg-open', args: [url] };
}

/** Starts the browser on `url`; says so when it cannot (the address is printed either way). */
function openBrowser(url: string): void {
  const { command, args } = opener(url);
  const failed = (why: string) => process.stderr.write(`iqm-tools view: could not open a browser (${command}: ${why}); open the address above yourself\n`);
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: process.platform !== 'win32' });
    child.on('error', (e: NodeJS.ErrnoException) => failed(e.code === 'ENOENT' ? 'not found' : e.message));
    child.on('exit', (code) => {
      if (code !== null && code !== 0) failed(`exit status ${code}`);
    });
    child.unref();
  } catch (e) {
    failed(e instanceof Error ? e.message : String(e));
  }
}

export async function runView(args: string[]): Promise<number> {
  const parsed = parseViewArgs(args);
  if (parsed === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if ('error' in parsed) {
    process.stderr.write(`iqm-tools view: ${parsed.error}\n${USAGE}`);
    return 2;
  }
  const files: string[] = [];
  for (const file of parsed.files) {
    let isFile = false;
    try {
      isFile = statSync(file).isFile();
    } catch {
      process.stderr.write(`iqm-tools view: ${file}: no such file\n`);
      return 2;
    }
    if (!isFile) {
      process.stderr.write(`iqm-tools view: ${file}: not a file\n`);
      return 2;
    }
    // core's paths are /-separated (core/files.ts).
    files.push(resolve(file).replace(/\\/g, '/'));
  }
  let server;
  try {
    server = await startViewServer({ files, port: parsed.port, engines: parsed.engines, dist: __dirname, log: (m) => process.stderr.write(`${m}\n`) });
  } catch (e) {
    process.stderr.write(`iqm-tools view: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  process.stdout.write(`iqm-tools view: ${files.length === 1 ? files[0] : `${files.length} models`} at\n\n  ${server.url}\n\nPress Ctrl+C to stop.\n`);
  if (parsed.open) openBrowser(server.url);
  const running = server;
  return await new Promise<number>((done) => {
    const stop = () => {
      process.stdout.write('iqm-tools view: stopped\n');
      void running.close().then(() => done(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
