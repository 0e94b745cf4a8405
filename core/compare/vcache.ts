// Vertex-cache quality of a triangle list: the average cache miss ratio (misses per triangle) of
// a FIFO cache of `size` entries, the usual measure of how well an index order suits a GPU's
// post-transform cache. 0.5 is the ideal for large regular meshes; 3 is no reuse at all.
export function averageCacheMissRatio(indices: ArrayLike<number>, size = 32): number {
  const triangles = Math.floor(indices.length / 3);
  if (triangles === 0) return 0;
  const cache = new Int32Array(size).fill(-1);
  let head = 0;
  let misses = 0;
  for (let i = 0; i < triangles * 3; i++) {
    const v = indices[i];
    let hit = false;
    for (let k = 0; k < size; k++) {
      if (cache[k] === v) {
        hit = true;
        break;
      }
    }
    if (!hit) {
      misses++;
      cache[head] = v;
      head = (head + 1) % size;
    }
  }
  return misses / triangles;
}
