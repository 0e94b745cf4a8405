// Text decoding shared by the CLI's IQE commands: UTF-8 (names are bytes in the reference
// compiler; UTF-8 is what exporters write), with a leading BOM kept so that line 1 columns agree
// with what an editor shows.
export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}
