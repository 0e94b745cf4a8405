// Moved to core/lookup (the engine lookup and the one clip order); media/viewer.ts still imports
// these names from here until its split lands. New code imports core/lookup.

export { playerPart } from '../lookup/player';
export { chooseSkin, textureNames, type SkinChoice } from '../lookup/meshTextures';
