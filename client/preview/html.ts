// The preview page with a strict Content-Security-Policy: nothing but our bundled script (by nonce),
// our bundled stylesheet, its icon font (codicons) and images from the allowed local roots (TGA
// fetched, the browser draws no TGA). No eval, no inline code or styles, no network.

export interface PageOptions {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource}`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    // TGA textures: fetched from the local roots and decoded by the page (media/textures.ts).
    `connect-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

function escapeAttribute(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function previewHtml(o: PageOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${escapeAttribute(o.styleUri)}">
<title>Model preview</title>
</head>
<body>
<script nonce="${escapeAttribute(o.nonce)}" src="${escapeAttribute(o.scriptUri)}"></script>
</body>
</html>`;
}

/** 32 random alphanumeric characters (crypto-strength where available). */
export function makeNonce(random: (n: number) => Uint8Array): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = random(32);
  let s = '';
  for (let i = 0; i < 32; i++) s += chars[bytes[i] % chars.length];
  return s;
}
