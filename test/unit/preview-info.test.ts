// The info panel's texture paths: relative to the model's folder where they are in it or below,
// so that the panel reads "tube.tga", not the whole path of the workspace (media/ui/info.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shownPath } from '../../media/ui/info';

test('info panel: a texture path is shown relative to the model folder when inside it', () => {
  assert.equal(shownPath('/home/me/game/models/tube.tga', '/home/me/game/models/tube.iqm'), 'tube.tga');
  assert.equal(shownPath('/home/me/game/models/skins/red.png', '/home/me/game/models/tube.iqm'), 'skins/red.png');
  // Outside the folder (the game's textures/ tree): whole.
  assert.equal(shownPath('/home/me/game/textures/tube.tga', '/home/me/game/models/tube.iqm'), '/home/me/game/textures/tube.tga');
  // A folder whose name only starts like the model's is not inside it.
  assert.equal(shownPath('/home/me/game/models2/tube.tga', '/home/me/game/models/tube.iqm'), '/home/me/game/models2/tube.tga');
  // Windows paths and URIs.
  assert.equal(shownPath('C:\\game\\models\\tube.tga', 'C:\\game\\models\\tube.iqm'), 'tube.tga');
  assert.equal(shownPath('vscode-remote://ssh/game/models/t.tga', 'vscode-remote://ssh/game/models/m.md3'), 't.tga');
  // No folder known (a bare file name): whole.
  assert.equal(shownPath('/x/tube.tga', 'tube.iqm'), '/x/tube.tga');
});
