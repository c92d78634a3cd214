// The report's "Diversity" section: per organization, one row per window × source (the original kept
// comments, and each rewrite mode the judge stored), then each set's top n-grams and openings. All
// text goes in through el()/grid(), i.e. textContent: n-grams are the hosts' words.
import { el, grid } from './elements';
import type { DiversityReport } from '../../src/core/review/diversity/report';
import { metric } from '../../src/core/review/diversity/table';

/** `d` undefined: still computing (in a worker process), or failed with `error`. */
export function diversitySection(d: DiversityReport | undefined, error?: string): HTMLElement {
  const section = el('section');
  section.dataset.section = 'diversity';
  if (!d) {
    section.append(
      el('h2', 'Diversity'),
      el('p', error ? `Diversity: not counted (${error}).` : 'Computing the diversity of the comments…', 'meta'),
    );
    return section;
  }
  section.append(
    el('h2', 'Diversity'),
    el(
      'p',
      `Over the kept comments of each organization and window, and over the judge's rewrites when there are any. ` +
        `Tokens: ${d.tokenization}. Distinct-n: distinct n-grams / all n-grams of the set (the whole set's type-token ratio is distinct-1). ` +
        `Entropy: of the unigram distribution, log base ${d.entropyLogBase} (bits). Mean TTR: each comment's type-token ratio, averaged. ` +
        `Self-BLEU: ${d.selfBleu.method}, on a seeded sample of at most ${d.selfBleu.sample} comments per set (seed ${d.selfBleu.seed}); lower means less repetition.`,
      'meta',
    ),
  );
  if (d.sets.length === 0) {
    section.append(el('p', 'No kept comments in this build: not counted.'));
    return section;
  }
  for (const org of [...new Set(d.sets.map((s) => s.org))]) {
    const sets = d.sets.filter((s) => s.org === org);
    section.append(
      el('h3', `${org}: diversity`),
      grid(
        [
          'window',
          'source',
          'comments',
          'distinct-1',
          'distinct-2',
          'distinct-3',
          'entropy (bits)',
          'mean TTR',
          'Self-BLEU',
          'sampled',
        ],
        sets.map((s) => {
          const m = s.metrics;
          return {
            cells: [
              s.window ?? '(no window)',
              s.source,
              m.comments.toLocaleString('en-US'),
              metric(m.distinct['1']),
              metric(m.distinct['2']),
              metric(m.distinct['3']),
              metric(m.entropyBits),
              metric(m.meanCommentTtr),
              metric(m.selfBleu.value),
              `${m.selfBleu.sampleSize} of ${m.selfBleu.population}`,
            ],
          };
        }),
        `${org} diversity`,
      ),
    );
    section.append(topNgrams(org, sets));
  }
  return section;
}

/** Each set's top 10 n-grams and comment openings, folded away. */
function topNgrams(org: string, sets: DiversityReport['sets']): HTMLElement {
  const details = el('details');
  details.append(el('summary', `${org}: top 10 n-grams and comment openings`));
  for (const s of sets) {
    const rows = Array.from({ length: 10 }, (_, i) =>
      (['1', '2', '3'] as const).flatMap((n) => [s.metrics.top[n][i], s.metrics.topOpening[n][i]]),
    )
      .filter((r) => r.some(Boolean))
      .map((r) => ({ cells: r.map((g) => (g ? `${g.ngram} (${g.count})` : '')) }));
    details.append(
      el('h4', `${s.window ?? '(no window)'} · ${s.source}`),
      grid(
        ['unigram', 'opening unigram', 'bigram', 'opening bigram', 'trigram', 'opening trigram'],
        rows,
        `${org} ${s.window ?? '(no window)'} ${s.source} top n-grams`,
      ),
    );
  }
  return details;
}
