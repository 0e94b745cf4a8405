// zlib-format compression (RFC 1950) for the PNGs of a glTF export in the web worker extension
// host, which has no node:zlib: the platform's CompressionStream('deflate') (its 'deflate' is the
// zlib format, header and Adler-32 included, as PNG's IDAT holds).
import type { Deflate } from '../../core/image/png';

export const streamDeflate: Deflate = async (data) => {
  const stream = new CompressionStream('deflate');
  const writer = stream.writable.getWriter();
  // A failed write also fails the read below, which reports it; these only must not go unhandled.
  writer.write(data as Uint8Array<ArrayBuffer>).catch(() => undefined);
  writer.close().catch(() => undefined);
  return new Uint8Array(await new Response(stream.readable).arrayBuffer());
};
