// node/atomicWrite.ts: the compiled file is written whole or not at all, and otherwise as a plain
// write would write it: through symbolic links, keeping the replaced file's permissions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { linkTarget, outputTarget, writeFileAtomically } from '../../node/atomicWrite';
import { withTempDir } from '../helpers/temp-dir';

const BYTES = new Uint8Array([1, 2, 3, 4, 5]);

test('atomic write: a new file gets the bytes and no temporary is left', () => {
  withTempDir('iqm-atomic-', (dir) => {
    writeFileAtomically(join(dir, 'out.iqm'), BYTES);
    assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'out.iqm'))), BYTES);
    assert.deepEqual(readdirSync(dir), ['out.iqm']);
  });
});

test('atomic write: through a symbolic link the linked file gets the bytes and the link stays', () => {
  withTempDir('iqm-atomic-', (dir) => {
    mkdirSync(join(dir, 'build'));
    writeFileSync(join(dir, 'build', 'model.iqm'), 'old');
    symlinkSync('build/model.iqm', join(dir, 'model.iqm'));
    writeFileAtomically(join(dir, 'model.iqm'), BYTES);
    assert.ok(lstatSync(join(dir, 'model.iqm')).isSymbolicLink(), 'the link was replaced by a file');
    assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'build', 'model.iqm'))), BYTES);
    assert.deepEqual(readdirSync(join(dir, 'build')), ['model.iqm'], 'no temporary left beside the target');
  });
});

test('atomic write: a dangling link names the file the write creates', () => {
  withTempDir('iqm-atomic-', (dir) => {
    symlinkSync(join(dir, 'made.iqm'), join(dir, 'link.iqm'));
    writeFileAtomically(join(dir, 'link.iqm'), BYTES);
    assert.ok(lstatSync(join(dir, 'link.iqm')).isSymbolicLink());
    assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'made.iqm'))), BYTES);
  });
});

test('atomic write: a relative link is followed from the folder that really holds it', () => {
  withTempDir('iqm-atomic-', (dir) => {
    // sub/alias -> ../real; real/l -> ../out/x.iqm. The kernel reads sub/alias/l as real/l, so
    // its target is out/x.iqm; read by the path's letters it would be sub/out/x.iqm (absent).
    mkdirSync(join(dir, 'real'));
    mkdirSync(join(dir, 'out'));
    mkdirSync(join(dir, 'sub'));
    symlinkSync('../real', join(dir, 'sub', 'alias'));
    symlinkSync('../out/x.iqm', join(dir, 'real', 'l'));
    assert.equal(linkTarget(join(dir, 'sub', 'alias', 'l')), join(dir, 'out', 'x.iqm'));
    writeFileAtomically(join(dir, 'sub', 'alias', 'l'), BYTES);
    assert.deepEqual(new Uint8Array(readFileSync(join(dir, 'out', 'x.iqm'))), BYTES);
    assert.ok(lstatSync(join(dir, 'real', 'l')).isSymbolicLink());
  });
});

test('atomic write: the replaced file keeps its permissions', () => {
  withTempDir('iqm-atomic-', (dir) => {
    const path = join(dir, 'out.iqm');
    writeFileSync(path, 'old');
    chmodSync(path, 0o640);
    writeFileAtomically(path, BYTES);
    assert.equal(statSync(path).mode & 0o7777, 0o640);
    chmodSync(path, 0o604);
    writeFileAtomically(path, BYTES);
    assert.equal(statSync(path).mode & 0o7777, 0o604);
    assert.equal(outputTarget(join(dir, 'new.iqm')).mode, undefined, 'a new file has no permissions to keep');
  });
});

test('atomic write: a file that may not be written is refused (EACCES), unchanged', { skip: process.getuid?.() === 0 ? 'root may write any file' : false }, () => {
  withTempDir('iqm-atomic-', (dir) => {
    const path = join(dir, 'locked.iqm');
    writeFileSync(path, 'old');
    chmodSync(path, 0o444);
    assert.throws(() => writeFileAtomically(path, BYTES), { code: 'EACCES' });
    assert.equal(readFileSync(path, 'utf8'), 'old');
    assert.deepEqual(readdirSync(dir), ['locked.iqm']);
  });
});

test('atomic write: a loop of links is ELOOP and nothing is written', () => {
  withTempDir('iqm-atomic-', (dir) => {
    symlinkSync('b', join(dir, 'a'));
    symlinkSync('a', join(dir, 'b'));
    assert.throws(() => writeFileAtomically(join(dir, 'a'), BYTES), { code: 'ELOOP' });
    assert.deepEqual(readdirSync(dir).sort(), ['a', 'b']);
  });
});

test('atomic write: when the rename fails the error is thrown and the temporary removed', () => {
  withTempDir('iqm-atomic-', (dir) => {
    // A folder that is not empty where the file should go: the rename cannot replace it.
    mkdirSync(join(dir, 'out.iqm'));
    writeFileSync(join(dir, 'out.iqm', 'keep'), 'x');
    assert.throws(() => writeFileAtomically(join(dir, 'out.iqm'), BYTES), (error: NodeJS.ErrnoException) => typeof error.code === 'string');
    assert.deepEqual(readdirSync(dir), ['out.iqm']);
    assert.deepEqual(readdirSync(join(dir, 'out.iqm')), ['keep']);
  });
});
