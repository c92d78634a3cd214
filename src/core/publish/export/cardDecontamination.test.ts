import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { DECONTAMINATION_NOTE, type DatasetFunnel } from '../../build/reports/funnelReport';
import { renderDecontamination } from './cardDecontamination';

const rows = (n: number | null) => [
  { stage: 'decontamination', rule: 'protected_overlap', unit: 'examples', removed: n },
];

function card(decontamination: DatasetFunnel['decontamination']): string {
  const funnel = {
    corpus: 'c',
    build: 1,
    rulesVersion: 'r',
    createdAt: 't',
    decontamination,
    organizations: {
      gerrit: {
        funnel: rows(3),
        counters: {},
        windows: {
          train: { examples: 5, funnel: rows(2), counters: {} },
          test: { sealed: true, examples: null, funnel: rows(0), counters: {} },
        },
      },
    },
  } as unknown as DatasetFunnel;
  const out: string[] = [];
  renderDecontamination(funnel, (...lines) => out.push(...lines, ''));
  return out.join('\n');
}

describe("the card's decontamination section", () => {
  it('names each reference set with its hash and items, the automatic windows, the counts and the note', () => {
    const md = card({
      policy: { wholeSide: true, commentTokens: 5 } as never,
      references: [
        {
          name: 'bench](https://e.example)',
          sha256: 'ab'.repeat(32),
          items: 1234,
          registered_at: '2026-11-01T00:00:00Z',
        },
      ],
      automatic: ['dev'],
      note: DECONTAMINATION_NOTE,
    });
    assert.match(md, /\| `bench\]\(https:\/\/e\.example\)` \| 1,234 \| `(ab){32}` \| `2026-11-01T00:00:00Z` \|/);
    assert.match(md, /Windows protected automatically: `dev`\./);
    assert.match(md, /\| `train` \| 2 \|\n\| `test` \| sealed \|\n\| all \| 3 \|/);
    assert.match(md, /- `commentTokens`: `5`/);
    const html = new MarkdownIt({ linkify: true }).render(md);
    assert.ok(html.includes(`<blockquote>\n<p>${DECONTAMINATION_NOTE}</p>`));
    assert.doesNotMatch(html, /<a /, 'a set name forms no link');
  });

  it('counts protected_comment in its own table only when the policy removes comments one by one', () => {
    const base = { references: [], automatic: ['dev'], note: DECONTAMINATION_NOTE };
    assert.doesNotMatch(
      card({ ...base, policy: { commentMatchRemoves: 'example' } as never }),
      /`protected_comment` removed/,
    );
    const md = card({ ...base, policy: { commentMatchRemoves: 'comment' } as never });
    assert.match(
      md,
      /Comments `protected_comment` removed:\n\n\| window \| `gerrit` \|\n\|[-:| ]+\|\n\| `train` \| not in this build \|/,
    );
  });

  it('says plainly when none was applied', () => {
    assert.match(card(undefined), /No decontamination was applied: this build's funnel records none/);
    assert.match(
      card({ policy: {} as never, references: [], automatic: [], note: DECONTAMINATION_NOTE }),
      /No decontamination was applied: no protected reference set is registered/,
    );
  });
});
