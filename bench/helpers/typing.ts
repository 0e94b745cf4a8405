// Where the language-server benches (lsp-edit, lsp-keystroke) type and point in a document.

/** Typed after a face line and deleted again, one character a keystroke. */
export const TYPED = '\nfm 0 1 2';

/** Lines near the middle of the document's faces: the face typed after, a face before it (its line number does not move) and a vp before that. */
export function places(lines: string[]) {
  const faces: number[] = [];
  for (let i = 0; i < lines.length; i++) if (/^\s*f[am]\s/.test(lines[i])) faces.push(i);
  if (faces.length < 4) throw new Error('the document has too few face lines to type after');
  const typeAfter = faces[faces.length >> 1];
  const face = faces[(faces.length >> 1) - 2];
  let vertex = face;
  while (vertex > 0 && !/^\s*vp\s/.test(lines[vertex])) vertex--;
  const faceLine = lines[face];
  const index = faceLine.search(/\d/); // the first index of the face
  return { typeAfter, typeColumn: lines[typeAfter].replace(/\r$/, '').length, face, faceIndexColumn: index, vertex, vertexColumn: lines[vertex].search(/vp/) + 1 };
}
