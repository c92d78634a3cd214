// The diversity report as an aligned plain-text table: one row per organization × window × source,
// then each set's top openings. The CLI escapes host text before calling this.
import type { DiversityReport } from './report';

/** A metric to 4 decimals; a set without it says so, never 0. */
export const metric = (v: number | null): string => (v === null ? 'none' : v.toFixed(4));

export function diversityTable(r: DiversityReport): string {
  const head = [
    'org',
    'window',
    'source',
    'comments',
    'tokens',
    'distinct-1',
    'distinct-2',
    'distinct-3',
    'entropy (bits)',
    'mean TTR',
    'Self-BLEU',
    'sample',
  ];
  const rows = r.sets.map((s) => {
    const m = s.metrics;
    return [
      s.org,
      s.window ?? '(no window)',
      s.source,
      String(m.comments),
      String(m.tokens),
      metric(m.distinct['1']),
      metric(m.distinct['2']),
      metric(m.distinct['3']),
      metric(m.entropyBits),
      metric(m.meanCommentTtr),
      metric(m.selfBleu.value),
      `${m.selfBleu.sampleSize}/${m.selfBleu.population}`,
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const fmt = (row: string[]) =>
    row
      .map((c, i) => (i < 3 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  const lines = [
    `build ${r.build}; tokens: ${r.tokenization}; entropy log base ${r.entropyLogBase}`,
    `Self-BLEU: ${r.selfBleu.method}; seeded sample of ${r.selfBleu.sample} per set (seed ${r.selfBleu.seed}), "sample" = scored/population`,
    '',
    fmt(head),
    ...rows.map(fmt),
  ];
  if (r.sets.length === 0) lines.push('(no kept comments in this build)');
  for (const s of r.sets) {
    const open = (['1', '2', '3'] as const).map(
      (n) =>
        s.metrics.topOpening[n]
          .slice(0, 3)
          .map((g) => `"${g.ngram}" ${g.count}`)
          .join(', ') || '-',
    );
    lines.push('', `${s.org} ${s.window ?? '(no window)'} ${s.source}: top openings ${open.join(' | ')}`);
  }
  return lines.join('\n');
}
