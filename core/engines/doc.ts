// The profile tables as Markdown, for docs/ENGINES.md (written by `npm run engines-doc`; a unit
// test keeps the document equal to the tables).

import { ENGINES } from './index';
import { citeSource, type Fact, type Rule } from './types';

const effectWord = (r: Rule): string => (r.effect === 'refuse' ? 'refuses' : r.effect === 'mangle' ? 'changes' : 'note');
const cell = (s: string) => s.replace(/\|/g, '\\|');

interface RuleLike extends Rule {
  max?: number;
  allowed?: readonly string[];
  arrays?: readonly string[];
  when?: string;
  frames?: number;
  tags?: number;
  surfaces?: number;
  shaders?: number;
  vertices?: number;
  triangles?: number;
  lower?: readonly string[];
  upper?: readonly string[];
}

function limitOf(key: string, r: RuleLike, versions: readonly number[] | undefined): string {
  if (r.max !== undefined) return `≤ ${r.max.toLocaleString('en-US')}`;
  if (r.allowed) return r.allowed.join(', ');
  if (r.arrays) return r.arrays.join(', ') + (r.when ? ` (with ${r.when})` : '');
  if (r.frames !== undefined) return `frames ${r.frames}, tags ${r.tags}, surfaces ${r.surfaces}, shaders ${r.shaders}, vertices ${r.vertices}, triangles ${r.triangles}`;
  if (r.lower) return `lower: ${r.lower.join(', ')}; upper: ${(r.upper ?? []).join(', ')}`;
  if (key === 'version') return (versions ?? [15]).join(', ');
  return '';
}

/** One section per engine: its scope, then every rule with limit, effect, fact and source. */
export function engineTables(): string {
  const out: string[] = [];
  for (const e of ENGINES) {
    const aliases = e.aliases.length ? `; also ${e.aliases.map((a) => `\`${a}\``).join(', ')}` : '';
    out.push(`### ${e.name} (\`${e.id}\`${aliases})`, '', e.scope, '', '| rule | limit / accepted | effect | fact | source |', '|---|---|---|---|---|');
    const row = (name: string, limit: string, effect: string, f: Fact) => out.push(`| ${name} | ${cell(limit)} | ${effect} | ${cell(f.text)} | ${cell(citeSource(f.source))} |`);
    row('formats', '', '', e.formats);
    const groups: [string, object | undefined, readonly number[] | undefined][] = [['IQM', e.iqm, e.iqm?.versions], ['MD3', e.md3, undefined], ['MD2', e.md2, undefined], ['DPM', e.dpm, undefined], ['player', e.player, undefined], ['textures', e.textures, undefined]];
    for (const [label, rules, versions] of groups) {
      if (!rules) continue;
      for (const [key, value] of Object.entries(rules)) {
        if (key === 'versions' || key === 'skinNaming' || key === 'extensions') continue;
        if (key === 'loader') row(`${label} loader`, '', '', value as Fact);
        else if (key === 'notes') for (const [name, fact] of Object.entries(value as Record<string, Fact>)) row(`${label} ${name}`, '', 'note', fact);
        else if (key === 'lookup') row(`${label} lookup`, e.textures?.extensions.join(', ') ?? '', '', value as Fact);
        else if (key === 'arrays') {
          for (const [type, a] of Object.entries(value as Record<string, RuleLike & { accepts: { format: string; size: number }[]; otherwise: string }>)) {
            row(`${label} ${type} array`, a.accepts.map((x) => `${x.format} × ${x.size}`).join(', ') || '—', `${effectWord(a)} (${a.otherwise})`, a.fact);
          }
        } else row(`${label} ${key}`, limitOf(key, value as RuleLike, versions), effectWord(value as RuleLike), (value as RuleLike).fact);
      }
    }
    out.push('');
  }
  return out.join('\n');
}
