// Compare in `iqm-tools view`: the page's two viewers (left, right) of one comparison group are
// paired as VS Code pairs two previews (client/compare/comparisons.ts): both get the semantic
// differences of `iqm-tools diff` (comparison.ts) after each load, and each forwards its camera and
// clip to the other.
import { comparisonResult } from '../../core/host/comparison';
import { fileNameOf } from '../../core/paths';
import type { SharedView } from '../../core/viewLink';
import type { ViewSession } from './session';

export type Side = 'left' | 'right';

interface Group {
  left: ViewSession | null;
  right: ViewSession | null;
  /** The view last shared by either side (a side that loads takes it). */
  view: SharedView | null;
}

export class ViewPairs {
  private readonly groups = new Map<string, Group>();

  /** `session` is the `side` viewer of `group` (in place of an earlier one, whose page is gone). */
  join(group: string, side: Side, session: ViewSession): void {
    const g = this.groups.get(group) ?? { left: null, right: null, view: null };
    this.groups.set(group, g);
    g[side] = session;
  }

  /** The session's page is gone: the other side's comparison ends. */
  leave(session: ViewSession): void {
    for (const [id, g] of this.groups) {
      const side: Side | null = g.left === session ? 'left' : g.right === session ? 'right' : null;
      if (!side) continue;
      g[side] = null;
      const other = g[side === 'left' ? 'right' : 'left'];
      if (other) other.post({ type: 'comparisonEnded' });
      else this.groups.delete(id);
    }
  }

  /** A side's camera, clip or playback changed: the other follows. */
  viewChanged(session: ViewSession, view: SharedView): void {
    const found = this.find(session);
    if (!found) return;
    found.group.view = view;
    found.other?.post({ type: 'syncView', view });
  }

  /** A side loaded (or failed to): both get the differences, once both are there. */
  loaded(session: ViewSession): void {
    const found = this.find(session);
    const g = found?.group;
    if (!g || !g.left || !g.right) return;
    const side = (s: ViewSession) => ({ name: fileNameOf(s.path), fileName: fileNameOf(s.path), model: s.model, sidecars: s.sidecars, problem: s.problem });
    const result = comparisonResult(side(g.left), side(g.right));
    g.left.post({ type: 'comparison', side: 'left', other: fileNameOf(g.right.path), ...result, view: g.view });
    g.right.post({ type: 'comparison', side: 'right', other: fileNameOf(g.left.path), ...result, view: g.view });
  }

  private find(session: ViewSession): { group: Group; other: ViewSession | null } | null {
    for (const g of this.groups.values()) {
      if (g.left === session) return { group: g, other: g.right };
      if (g.right === session) return { group: g, other: g.left };
    }
    return null;
  }
}
