// Base64 (RFC 4648, with padding) for bytes sent over JSON-RPC: the language server in the browser
// reads model files through the client, and JSON carries no binary. Pure: the same in Node, the web
// worker extension host and the server's Web Worker.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

export function encodeBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  // In pieces: one string concatenation per byte would be slow on a model of many megabytes.
  const CHUNK = 3 * 8192;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const end = Math.min(bytes.length, start + CHUNK);
    let s = '';
    for (let i = start; i < end; i += 3) {
      const a = bytes[i];
      const b = i + 1 < end ? bytes[i + 1] : 0;
      const c = i + 2 < end ? bytes[i + 2] : 0;
      s += ALPHABET[a >> 2] + ALPHABET[((a & 3) << 4) | (b >> 4)];
      s += i + 1 < end ? ALPHABET[((b & 15) << 2) | (c >> 6)] : '=';
      s += i + 2 < end ? ALPHABET[c & 63] : '=';
    }
    parts.push(s);
  }
  return parts.join('');
}

/** Decodes padded base64; throws on a length that is not a multiple of 4 or a character outside the alphabet (with its offset). */
export function decodeBase64(text: string): Uint8Array {
  if (text.length % 4 !== 0) throw new Error(`base64 text of ${text.length} characters (not a multiple of 4)`);
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const code = text.charCodeAt(i + k);
      const pad = code === 61 && i + k >= text.length - padding;
      const v = pad ? 0 : code < 128 ? VALUES[code] : -1;
      if (v < 0) throw new Error(`not base64 at character ${i + k}`);
      n = (n << 6) | v;
    }
    if (o < out.length) out[o++] = (n >> 16) & 255;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}
