// The model as shown when the host offers a partner file (core/model/animationSet.ts): an animation
// file played on the mesh chosen in the "Mesh from" picker, or a mesh playing the chosen animation
// file's clips. Where the chosen file cannot be used, the opened model alone, with a note saying why.

import { withAnimation } from '../core/model/animationSet';
import type { Model } from '../core/model/model';
import type { PartnerOffer } from '../core/protocol';
import { loadModelBytes } from './load';

/** The model to show for `model` and the host's offer, and the partner used ('' for none); notes go to `notes`. */
export function withPartner(model: Model, offer: PartnerOffer | undefined, notes: string[]): { model: Model; partner: string } {
  if (!offer?.chosen) {
    if (offer?.role === 'mesh' && offer.matches.length > 1) notes.push(`${offer.matches.length} models of the folder fit these animations: pick one in "Mesh from"`);
    return { model, partner: '' };
  }
  const chosen = offer.chosen;
  try {
    const other = loadModelBytes(new Uint8Array(chosen.bytes), chosen.name).model;
    const how = offer.automatic ? ' (the only model of the folder with this skeleton)' : '';
    if (offer.role === 'mesh') {
      notes.push(`mesh from ${chosen.name}${how}`);
      return { model: withAnimation(other, model), partner: chosen.name };
    }
    notes.push(`clips from ${chosen.name}`);
    return { model: withAnimation(model, other), partner: chosen.name };
  } catch (e) {
    notes.push(`${chosen.name} cannot be used: ${e instanceof Error ? e.message : String(e)}`);
    return { model, partner: '' };
  }
}
