// The funnel page's "Label audit" section: what label-audit-<org>.json holds, per organization (valid
// shares with counts, the shares on the build's kept set, κ, the cross-tab by rule and flag and its
// sentences). Without a drawn sample, the labels recorded by rater. Text goes in through textContent.
import { el, grid } from './elements';
import type { FunnelReportData } from '../../src/extension/funnel/funnelData';
import { formatCount as show } from '../../src/core/publish/export/funnelPicture';
import { auditAgreementPart } from './agreement';
import type { OrgRaterAgreement } from '../../src/core/review/labels/auditAgreement';

const share = (s: number | null) => (s === null ? 'none labelled' : s.toFixed(3));
const kappa = (k: number | null) => (k === null ? 'not defined' : k.toFixed(3));

/** `agreement`: the figures among all raters per organization, once the worker has them. */
export function labelAuditSection(
  data: FunnelReportData,
  agreement?: ReadonlyMap<string, OrgRaterAgreement>,
): HTMLElement {
  const section = el('section');
  section.dataset.section = 'label-audit';
  section.append(el('h2', 'Label audit'));
  const audit = data.labelAudit;
  if (!audit) {
    section.append(...labelsWithoutSample(data));
    return section;
  }
  const s = audit.sample;
  section.append(
    el(
      'p',
      `Sample ${s.id}: ${s.items} kept examples of build ${s.buildId} (asked ${s.size}), seed "${s.seed}", drawn ${s.drawnAt}, stratified by organization × window. Valid: the rewrite answers its comment. Kept set: build ${audit.build}.`,
      'meta',
    ),
  );
  for (const o of audit.organizations) section.append(orgAuditPart(o, agreement?.get(o.org)));
  return section;
}

/** Without a drawn sample: the labels recorded so far, by rater. */
function labelsWithoutSample(data: FunnelReportData): HTMLElement[] {
  const out: HTMLElement[] = [el('p', 'No audit sample drawn (Review Corpus: Draw Label Audit Sample…).')];
  if (data.labels.raters.length === 0) out.push(el('p', 'No labels yet.'));
  else {
    out.push(
      grid(
        ['rater', 'labelled', 'answers', 'does not', 'unsure', 'share answering'],
        data.labels.raters.map((r) => ({
          cells: [
            r.rater,
            show(r.total),
            show(r.counts.answers),
            show(r.counts.does_not),
            show(r.counts.unsure),
            `${(r.answersShare * 100).toFixed(1)}%`,
          ],
        })),
        'label shares',
      ),
    );
  }
  return out;
}

type OrgAudit = NonNullable<FunnelReportData['labelAudit']>['organizations'][number];

/** One organization's audit: valid shares (and on the kept set), κ, all raters' agreement, the cross-tab and its sentences. */
function orgAuditPart(o: OrgAudit, agreement: OrgRaterAgreement | undefined): HTMLElement {
  const part = el('section');
  part.dataset.org = o.org;
  const keptBy = new Map(o.kept_set.raters.map((r) => [r.rater, r]));
  part.append(el('h3', `${o.org}: ${o.items} items, ${o.scored} scored`));
  part.append(
    grid(
      [
        'rater',
        'kind',
        'labelled',
        'answers',
        'does not',
        'unsure',
        'valid share',
        `on build ${o.kept_set.build}'s ${o.kept_set.items} kept`,
      ],
      o.raters.map((r) => {
        const k = keptBy.get(r.rater);
        return {
          cells: [
            r.rater,
            r.kind,
            show(r.scored),
            show(r.answers),
            show(r.does_not),
            show(r.unsure),
            share(r.valid_share),
            k ? `${share(k.valid_share)} (${k.scored})` : 'none labelled',
          ],
        };
      }),
      `${o.org} label audit`,
    ),
  );
  if (o.agreement.length) {
    part.append(
      grid(
        ['rater A', 'rater B', 'both labelled', "Cohen's κ"],
        o.agreement.map((a) => ({
          cells: [a.rater_a, a.rater_b, show(a.both), kappa(a.kappa)],
        })),
        `${o.org} rater agreement`,
      ),
    );
  }
  part.append(auditAgreementPart(o.org, agreement));
  part.append(
    grid(
      ['by', 'value', 'items', 'scored', ...o.raters.map((r) => `${r.rater} valid`)],
      o.cross_tab.map((c) => ({
        cells: [c.by, c.value, show(c.items), show(c.scored), ...c.raters.map((r) => `${r.valid} of ${r.scored}`)],
      })),
      `${o.org} label audit cross-tab`,
    ),
  );
  const list = el('ul', undefined, 'audit-summary');
  for (const line of o.summary) list.append(el('li', line));
  part.append(list);
  return part;
}
