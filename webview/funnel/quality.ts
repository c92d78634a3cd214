// The report's "Comment quality" section: the judge's classes per organization × window (halves
// summed), each score's distribution as a small SVG histogram, and judge-vs-human / judge-vs-judge
// agreement. Without judgments every count reads "not counted". Text goes in through textContent only.
import { el, grid } from './elements';
import type { QualityReport } from '../../src/core/review/judge/report';
import type { ScoreDistribution } from '../../src/core/review/quality/scoreDistribution';
import type { AnswerAgreement } from '../../src/core/review/quality/agreement';
import type { QualityRaterAgreement } from '../../src/core/review/quality/qualityRaterAgreement';
import { qualityAgreementPart } from './agreement';

const SVG = 'http://www.w3.org/2000/svg';
const CLASSES = ['high', 'low', 'irrelevant', 'unjudged'] as const;
const count = (n: number | null) => (n === null ? 'not counted' : n.toLocaleString('en-US'));

export function qualitySection(
  q: QualityReport,
  scores: ScoreDistribution[] | null,
  agreement: AnswerAgreement[],
  many?: QualityRaterAgreement,
): HTMLElement {
  const section = el('section');
  section.dataset.section = 'quality';
  const t = q.thresholds;
  section.append(
    el('h2', 'Comment quality'),
    el(
      'p',
      `The judge's classes of the kept comments (${q.model === null ? 'latest judgment of any model' : `model ${q.model}`}): ` +
        `irrelevant when relevance < ${t.irrelevantBelow}; high when civil, clarity ≥ ${t.clarityMin} and conciseness ≥ ${t.concisenessMin}; low otherwise.`,
      'meta',
    ),
  );
  const perWindow = classesPerWindow(q);
  if (!q.judged)
    section.append(
      el(
        'p',
        'No judgments in this corpus file: quality not counted. Run the judge (review-corpus judge, or Judge Comments…).',
      ),
    );
  section.append(
    grid(
      ['organization', 'window', 'kept comments', ...CLASSES],
      [...perWindow.values()].map((g) => ({
        cells: [
          g.org,
          g.window ?? '(no window)',
          g.comments.toLocaleString('en-US'),
          ...CLASSES.map((c) => count(g.counts[c])),
        ],
      })),
      'comment quality per window',
    ),
  );

  scoreDistributions(section, scores);
  pairAgreement(section, agreement);
  section.append(qualityAgreementPart(many));
  return section;
}

/** The judge's classes per organization and window, the halves summed; null: not counted. */
function classesPerWindow(
  q: QualityReport,
): Map<string, { org: string; window: string | null; comments: number; counts: Record<string, number | null> }> {
  const perWindow = new Map<
    string,
    { org: string; window: string | null; comments: number; counts: Record<string, number | null> }
  >();
  for (const r of q.rows) {
    const id = `${r.org}\0${r.window ?? ''}`;
    const g = perWindow.get(id) ?? {
      org: r.org,
      window: r.window,
      comments: 0,
      counts: Object.fromEntries(CLASSES.map((c) => [c, r.counts[c] === null ? null : 0])),
    };
    g.comments += r.comments;
    for (const c of CLASSES)
      g.counts[c] = g.counts[c] === null || r.counts[c] === null ? null : g.counts[c]! + r.counts[c]!;
    perWindow.set(id, g);
  }
  return perWindow;
}

/** Each organization and window's score histograms. */
function scoreDistributions(section: HTMLElement, scores: ScoreDistribution[] | null): void {
  section.append(el('h3', 'Score distributions'));
  if (scores === null) section.append(el('p', 'Scores: not counted (no judgments).'));
  else {
    for (const s of scores) {
      const box = el('div', undefined, 'score-group');
      box.append(el('h4', `${s.org} · ${s.window ?? '(no window)'} · ${s.judged.toLocaleString('en-US')} judged`));
      for (const name of ['relevance', 'clarity', 'conciseness'] as const)
        box.append(histogram(name, s.counts[name], `${s.org} ${s.window ?? '(no window)'} ${name}`));
      section.append(box);
    }
  }
}

/** Cohen's κ between each pair of raters (judge vs human, judge vs judge). */
function pairAgreement(section: HTMLElement, agreement: AnswerAgreement[]): void {
  section.append(
    el('h3', 'Agreement'),
    el(
      'p',
      "Cohen's κ per category (type and nature: each label one-vs-rest, then their mean); " +
        'scores: κ and quadratic-weighted κ (weights on the score values). "not defined": no pair, or no variation.',
      'meta',
    ),
  );
  if (agreement.length === 0)
    section.append(el('p', 'No pair of raters: label comments (Label Comment Quality…) or judge with a second model.'));
  else {
    section.append(
      grid(
        [
          'rater A',
          'rater B',
          'kind',
          'items',
          'civility',
          'type',
          'nature',
          'relevance κ / κw',
          'clarity κ / κw',
          'conciseness κ / κw',
        ],
        agreement.map((a) => ({
          cells: [
            a.raterA,
            a.raterB,
            a.kind,
            a.items.toLocaleString('en-US'),
            kappa(a.civility),
            kappa(a.type.mean),
            kappa(a.nature.mean),
            ...(['relevance', 'clarity', 'conciseness'] as const).map(
              (s) => `${kappa(a.scores[s].kappa)} / ${kappa(a.scores[s].quadratic)}`,
            ),
          ],
        })),
        'quality agreement',
      ),
    );
  }
}

const kappa = (k: number | null) => (k === null ? 'not defined' : k.toFixed(3));

/** Ten bars, scores 1..10; each bar's title gives its number. */
function histogram(name: string, counts: number[], label: string): SVGSVGElement {
  const width = 220;
  const height = 60;
  const barW = 18;
  const max = Math.max(1, ...counts);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height + 28}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('class', 'chart histogram');
  svg.setAttribute('aria-label', label);
  const title = document.createElementNS(SVG, 'text');
  title.setAttribute('x', '0');
  title.setAttribute('y', '10');
  title.textContent = name;
  svg.append(title);
  counts.forEach((c, i) => {
    const h = Math.round(((height - 14) * c) / max);
    const rect = document.createElementNS(SVG, 'rect');
    rect.setAttribute('x', String(i * (barW + 3)));
    rect.setAttribute('y', String(height - h));
    rect.setAttribute('width', String(barW));
    rect.setAttribute('height', String(Math.max(h, c > 0 ? 1 : 0)));
    rect.setAttribute('class', 'bar');
    const tip = document.createElementNS(SVG, 'title');
    tip.textContent = `${name} ${i + 1}: ${c}`;
    rect.append(tip);
    const axis = document.createElementNS(SVG, 'text');
    axis.setAttribute('x', String(i * (barW + 3) + 5));
    axis.setAttribute('y', String(height + 12));
    axis.textContent = String(i + 1);
    svg.append(rect, axis);
  });
  return svg;
}
