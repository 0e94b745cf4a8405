// The webview's side of the preview's timeline (core/previewTimeline.ts). main.ts imports this
// module first, so its body runs as the bundle starts.

import { PreviewTimeline } from '../core/previewTimeline';

export const timeline = new PreviewTimeline();
// The document's navigation start, on the shared clock (performance.now() counts from it).
timeline.mark('webviewStart', Date.now() - performance.now());
timeline.mark('scriptStart');
