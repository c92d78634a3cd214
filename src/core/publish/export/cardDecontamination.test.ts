import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { DECONTAMINATION_NOTE, type DatasetFunnel } from '../../build/reports/funnelReport';
import { renderDecontamination } from './cardDecontamination';

const rows = (n: number | null) => [
  { stage: 'decontamination', rule: 'protected_overlap', unit: 'examples', removed: n },
];

function card(decontamination: DatasetFunnel['decontamination'], warnings?: string[]): string {
  const funnel = {
    ...(warnings ? { warnings } : {}),
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
  it('names each reference set with its hash and items, the counts and the note; an older build protected train automatically', () => {
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
    assert.match(
      md,
      /Cross-window decontamination: on\. This build predates the `decontam\.crossWindow` setting, when every window but train protected train automatically: train examples were checked against `dev`/,
    );
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

  it('says whether cross-window decontamination was on, with its own policy, what it removed and its warning', () => {
    const base = { policy: {} as never, references: [], note: DECONTAMINATION_NOTE };
    const policy = { wholeSide: true, commentTokens: 7 } as never;
    const off = card({
      ...base,
      automatic: [],
      crossWindow: { enabled: false, window: 'train', against: [], policy, removed: [] },
    });
    assert.match(off, /Cross-window decontamination: off \(`decontam\.crossWindow\.enabled` is false, the default\)/);
    const warning = 'cross-window decontamination removed 3 of 4 examples (75.0%) of gerrit train, more than a tenth';
    const on = card(
      {
        ...base,
        automatic: ['dev'],
        crossWindow: {
          enabled: true,
          window: 'train',
          against: ['dev'],
          policy,
          removed: [{ org: 'gerrit', window: 'train', unit: 'examples', checked: 4, removed: 3 }],
        },
      },
      [warning],
    );
    assert.match(
      on,
      /Cross-window decontamination: on \(`decontam\.crossWindow\.enabled`\)\. Train examples were checked against `dev`, under its own policy:\n\n- `wholeSide`: `true`\n- `commentTokens`: `7`/,
    );
    assert.match(on, /- `gerrit`: 3 of 4 examples \(75\.0%\)\./);
    assert.match(on, /> \*\*Warning:\*\* cross\\-window decontamination removed 3 of 4/);
  });

  it('says plainly when none was applied', () => {
    assert.match(card(undefined), /No decontamination was applied: this build's funnel records none/);
    assert.match(
      card({ policy: {} as never, references: [], automatic: [], note: DECONTAMINATION_NOTE }),
      /No decontamination was applied: no protected reference set is registered/,
    );
  });
});
