// The frame names of an MD2 (Quake 2) model, for the MODELDEF check's `Frame` lookups (GZDoom's
// FDMDModel::FindFrame compares them case-insensitively). Only the header and the 16-byte name of
// each frame are read; iqm-tools does not otherwise load MD2. Layout (little-endian int32s): ident
// "IDP2" at 0, framesize at 16, num_frames at 40, ofs_frames at 56; a frame is scale[3] and
// translate[3] (24 bytes of floats), then name[16], then its vertices.

const HEADER_BYTES = 68;
const NAME_AT = 24;
const NAME_BYTES = 16;

/** The frame names, or a message saying what in the header is out of the file's bounds. */
export function md2FrameNames(bytes: Uint8Array): { names: string[] } | { error: string } {
  if (bytes.length < HEADER_BYTES || String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) !== 'IDP2') return { error: 'not an MD2 file (no IDP2 header)' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frameSize = view.getInt32(16, true);
  const count = view.getInt32(40, true);
  const offset = view.getInt32(56, true);
  if (count < 0 || frameSize < NAME_AT + NAME_BYTES || offset < HEADER_BYTES) return { error: `MD2 header: ${count} frames of ${frameSize} bytes at byte ${offset}` };
  if (offset + count * frameSize > bytes.length) return { error: `MD2 header: ${count} frames of ${frameSize} bytes at byte ${offset} run past the file's ${bytes.length} bytes` };
  const names: string[] = [];
  for (let f = 0; f < count; f++) {
    const at = offset + f * frameSize + NAME_AT;
    let name = '';
    for (let k = 0; k < NAME_BYTES && bytes[at + k] !== 0; k++) name += String.fromCharCode(bytes[at + k]);
    names.push(name);
  }
  return { names };
}
