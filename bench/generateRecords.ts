// Turns the corpus plan into the records the fetch would have stored: per change its revisions, its
// comments (accounts still as raw ids; the writer pseudonymizes them) and one DiffInfo per commented
// (file, patch set N), with context=ALL. Also keeps the list of planted duplicates, by example key.
import { ORGS, type ChangePlan, type CorpusPlan, type Slot } from './generateCorpus';
import { Rng, TextMaker, shingleJaccard } from './generateText';

export interface AccountRef {
  id: number;
  serviceUser?: boolean;
}

export interface GenComment {
  gerritId: string;
  path: string;
  patchSet: number;
  side: 'REVISION' | 'PARENT';
  line: number | null;
  range: { startLine: number; startCharacter: number; endLine: number; endCharacter: number } | null;
  inReplyTo: string | null;
  author: AccountRef;
  message: string;
  updated: string;
  unresolved: boolean;
}

export interface GenChange {
  plan: ChangePlan;
  changeKey: string;
  project: string;
  branch: string;
  updated: string;
  owner: AccountRef;
  totalCommentCount: number;
  revisions: { ps: number; sha: string; kind: string | null; created: string }[];
  comments: GenComment[];
  diffs: { path: string; psBase: number; content: string }[];
}

/** What the side file lists: every planted pair or group, by example key, and the expected outcome counts. */
export interface Planted {
  exact: { kept: string; dup: string; whitespaceOnly: boolean }[];
  near: { kept: string; dup: string; jaccard: number }[];
  /** Exact copies in another organization: both must be kept (duplicates are per organization). */
  crossOrg: { original: string; copy: string }[];
  boilerplate: string[][];
  /** Per expected rule (kept: null rule), how many examples. */
  expected: Record<string, number>;
}

/** The side file of a corpus file: the planted duplicates (JSON of Planted, plus seed and examples). */
export function plantedFileOf(db: string): string {
  return `${db.replace(/\.sqlite$/, '')}.planted.json`;
}

/** `classic`: the files of the first benchmarks (about 94 lines); `realistic`: see realisticFileLines. */
export type FileLengths = 'classic' | 'realistic';

/**
 * Lines of a reviewed file (side A, Gerrit's count), `realistic`: log-normal, median 250, σ = 1.2
 * (mean ≈ 510; 1 in 1,000 over 10,000 lines), capped at 60,000. An assumption, not a fit: source file
 * sizes are log-normal in their body with a heavier (double Pareto) tail (Herraiz, German, Hassan,
 * "On the distribution of source code file sizes", ICSOFT 2011, on Debian 5.0.2), and no published
 * distribution of *reviewed* file lengths was found (docs/storage.md "The generator's file lengths").
 */
export function realisticFileLines(rng: Rng): number {
  // Box–Muller from two uniforms of our own PRNG, so the same seed gives the same lengths everywhere.
  const z = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  return Math.min(60_000, Math.max(1, Math.round(Math.exp(Math.log(250) + 1.2 * z))));
}

interface Region {
  ctxB: string[];
  editA: string[];
  editB: string[];
  ctxA: string[];
}

/** The hunk the build forms from a region: both sides, context included, each line ending in "\n". */
export function hunkOf(r: Region): { before: string; after: string } {
  return {
    before: [...r.ctxB, ...r.editA, ...r.ctxA].join('\n') + '\n',
    after: [...r.ctxB, ...r.editB, ...r.ctxA].join('\n') + '\n',
  };
}

const EXPECTED_RULE: Record<Slot['role'], string> = {
  base: 'kept',
  crossOrg: 'kept',
  rebase: 'rebase_only',
  suggestion: 'suggested_edit',
  exact: 'exact_duplicate',
  near: 'near_duplicate',
  boilerplate: 'boilerplate',
};
const PROJECTS = ['core', 'client', 'server', 'docs-tools', 'infra', 'ui', 'sdk', 'plugins'];
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

export class RecordMaker {
  readonly planted: Planted = { exact: [], near: [], crossOrg: [], boilerplate: [], expected: {} };
  private readonly text: TextMaker;
  private readonly regions = new Map<number, Region>();
  private readonly keys = new Map<number, string>();
  private readonly groups = new Map<number, { template: Region; members: Region[]; keys: string[] }>();

  /**
   * @param lengths `realistic`: files padded to lengths drawn by realisticFileLines (their own PRNG, so
   * every other record, the hunks and comments included, is the one `classic` makes).
   */
  constructor(
    private readonly plan: CorpusPlan,
    private readonly rng: Rng,
    lengths: FileLengths = 'classic',
    seed = 0,
  ) {
    this.text = new TextMaker(rng);
    if (lengths === 'realistic') {
      const padRng = new Rng(seed ^ 0x6c656e73);
      this.padding = { rng: padRng, text: new TextMaker(padRng) };
    }
  }
  private readonly padding?: { rng: Rng; text: TextMaker };
  /** Side A's lines (Gerrit's count) of every diff made, for the generator's summary. */
  readonly fileLines: number[] = [];

  /** Boilerplate groups are complete once every change is made. */
  finish(): Planted {
    for (const g of this.groups.values()) this.planted.boilerplate.push(g.keys);
    for (const s of this.plan.slots)
      this.planted.expected[EXPECTED_RULE[s.role]] = (this.planted.expected[EXPECTED_RULE[s.role]] ?? 0) + 1;
    return this.planted;
  }

  change(c: ChangePlan): GenChange {
    const r = this.rng;
    const owner = this.person(c.org);
    const revisions = c.kinds.map((kind, i) => ({
      ps: i + 1,
      sha: r.hex(40),
      kind,
      created: iso(c.created + i * (HOUR + r.int(0, 48) * HOUR)),
    }));
    const lastPs = revisions.length;
    const base = {
      plan: c,
      changeKey: `I${r.hex(40)}`,
      project: `${ORGS[c.org]}/${r.pick(PROJECTS)}`,
      branch: r.chance(0.85) ? 'master' : 'stable/2025.1',
      updated: iso(c.created + lastPs * 49 * HOUR + r.int(1, 200) * HOUR),
      owner,
      revisions,
    };
    if (c.collection !== null) {
      const count = c.collection === 'no_comments' ? 0 : r.int(1, 8);
      return { ...base, totalCommentCount: count, comments: [], diffs: [] };
    }
    const comments: GenComment[] = [];
    const diffs: GenChange['diffs'] = [];
    const reviewer = () => this.person(c.org, owner.id);
    const at = (ps: number) => iso(c.created + (ps - 1) * 49 * HOUR + r.int(1, 40) * HOUR);
    const comment = (
      path: string,
      ps: number,
      line: number | null,
      author: AccountRef,
      message: string,
      extra: Partial<GenComment> = {},
    ): GenComment => {
      const made: GenComment = {
        gerritId: `${r.hex(8)}_${r.hex(8)}`,
        path,
        patchSet: ps,
        side: 'REVISION',
        line,
        range: null,
        inReplyTo: null,
        author,
        message,
        updated: at(ps),
        unresolved: true,
        ...extra,
      };
      comments.push(made);
      return made;
    };

    for (const file of c.files) {
      const layout = this.layoutFile(file.slots.map((i) => this.regionOf(i)));
      file.slots.forEach((slotIndex, k) => {
        const { editAStart, beforeStart } = layout.starts[k];
        const slot = this.plan.slots[slotIndex];
        this.record(slotIndex, `${ORGS[c.org]}/${c.number}/${file.psN}/${beforeStart}/${file.path}`);
        const reviewers = r.weighted([
          [1, 0.6],
          [2, 0.3],
          [3, 0.1],
        ]);
        for (let n = 0; n < reviewers; n++) {
          const line = editAStart + r.int(0, slot.editA - 1);
          const message = slot.role === 'suggestion' && n === 0 ? this.text.suggestion() : this.text.reviewComment();
          const ranged = r.chance(0.2);
          const startLine = ranged ? line - r.int(0, Math.min(3, line - editAStart)) : line;
          const first = comment(
            file.path,
            file.psN,
            line,
            reviewer(),
            message,
            ranged ? { range: { startLine, startCharacter: 0, endLine: line, endCharacter: r.int(4, 60) } } : {},
          );
          if (n === 0 && r.chance(0.4))
            comment(file.path, file.psN, line, owner, 'Done', { inReplyTo: first.gerritId, unresolved: false });
        }
        if (r.chance(0.04))
          comment(
            file.path,
            file.psN,
            editAStart,
            { id: 9_000_000 + c.org, serviceUser: true },
            'Hint: Trailing whitespace',
          );
        if (r.chance(0.02))
          comment(file.path, file.psN, editAStart, reviewer(), 'E501 line too long (83 > 79 characters)');
      });
      // A reviewer remark on code N + 1 left alone: removed as unchanged_around.
      if (r.chance(0.04) && layout.starts[0].editAStart - layout.lead >= 5)
        comment(file.path, file.psN, 1, reviewer(), this.text.reviewComment());
      diffs.push({ path: file.path, psBase: file.psN, content: this.diffJson(file.path, layout) });
    }
    const first = c.files[0];
    if (r.chance(0.4))
      comment('/PATCHSET_LEVEL', lastPs, null, reviewer(), 'Thanks, a few questions inline.', { unresolved: false });
    if (r.chance(0.25))
      comment(
        '/PATCHSET_LEVEL',
        lastPs,
        null,
        { id: 9_100_000 + c.org },
        `Build succeeded. ${r.int(100, 999)} tests passed.`,
        { unresolved: false },
      );
    if (r.chance(0.1)) comment(first.path, lastPs, r.int(1, 20), reviewer(), this.text.reviewComment());
    if (r.chance(0.05)) comment(first.path, first.psN, null, reviewer(), this.text.reviewComment());
    if (r.chance(0.02))
      comment(first.path, first.psN, r.int(1, 20), reviewer(), this.text.reviewComment(), { side: 'PARENT' });
    return { ...base, totalCommentCount: comments.length, comments, diffs };
  }

  /** An account of the org: a few hundred regulars and a long tail; never `not`. */
  private person(org: number, not = -1): AccountRef {
    for (;;) {
      const id = 1_000_000 + org * 100_000 + Math.floor(4000 * this.rng.next() ** 2.5);
      if (id !== not) return { id };
    }
  }

  private record(slot: number, key: string): void {
    const s = this.plan.slots[slot];
    if (this.plan.isOrigin[slot]) this.keys.set(slot, key);
    const kept = s.origin >= 0 ? this.keys.get(s.origin)! : '';
    if (s.role === 'exact') this.planted.exact.push({ kept, dup: key, whitespaceOnly: s.whitespace });
    if (s.role === 'crossOrg') this.planted.crossOrg.push({ original: kept, copy: key });
    if (s.role === 'near') this.planted.near.push({ kept, dup: key, jaccard: this.jaccards.get(slot)! });
    if (s.role === 'boilerplate') this.groups.get(s.group)!.keys.push(key);
  }

  /** Near copies: the reference Jaccard with their original. */
  private readonly jaccards = new Map<number, number>();

  private regionOf(i: number): Region {
    const s = this.plan.slots[i];
    const t = this.text;
    let region: Region;
    if (s.role === 'exact' || s.role === 'crossOrg') {
      const original = this.regions.get(s.origin)!;
      region = s.whitespace ? reformat(original, this.rng) : original;
    } else if (s.role === 'near') {
      const near = this.nearCopy(this.regions.get(s.origin)!);
      region = near.copy;
      this.jaccards.set(i, near.jaccard);
    } else if (s.role === 'boilerplate') {
      region = this.boilerplateMember(s);
    } else {
      const editA = t.lines(s.editA);
      region = { ctxB: t.lines(s.ctxB), editA, editB: t.revise(editA, s.editB), ctxA: t.lines(s.ctxA) };
    }
    if (this.plan.isOrigin[i]) this.regions.set(i, region);
    return region;
  }

  /** One or two tokens changed anywhere in the hunk, retried until Jaccard lands in [0.9, 1). */
  private nearCopy(original: Region): { copy: Region; jaccard: number } {
    const hunk = hunkOf(original);
    let copy = original;
    let jaccard = 1;
    for (let tries = 0; tries < 40; tries++) {
      copy = {
        ctxB: [...original.ctxB],
        editA: [...original.editA],
        editB: [...original.editB],
        ctxA: [...original.ctxA],
      };
      const parts = [copy.ctxB, copy.editA, copy.editB, copy.ctxA];
      const total = parts.reduce((n, p) => n + p.length, 0);
      for (let e = this.rng.int(1, 2); e > 0; e--) {
        let at = this.rng.int(0, total - 1);
        const part = parts.find((p) => (at < p.length ? true : ((at -= p.length), false)))!;
        part[at] = this.text.retoken(part[at]);
      }
      jaccard = shingleJaccard(hunk, hunkOf(copy));
      if (jaccard >= 0.9 && jaccard < 1) break;
    }
    return { copy, jaccard };
  }

  /** The group's licence-header edit with this member's own answer, unlike every other member's. */
  private boilerplateMember(s: Slot): Region {
    let g = this.groups.get(s.group);
    if (!g) {
      const t = this.text;
      const header = [
        '/*',
        ` * Copyright (C) ${this.rng.int(2015, 2024)} The ${t.ident()} Authors. All rights reserved.`,
        ' * SPDX-License-Identifier: Apache-2.0',
      ];
      g = { template: { ctxB: header, editA: t.lines(s.editA), editB: [], ctxA: t.lines(3) }, members: [], keys: [] };
      this.groups.set(s.group, g);
    }
    let member: Region = g.template;
    for (let tries = 0; tries < 20; tries++) {
      member = { ...g.template, editB: this.text.lines(s.editB) };
      if (g.members.every((m) => shingleJaccard(hunkOf(m), hunkOf(member)) < 0.6)) break;
    }
    g.members.push(member);
    return member;
  }

  /** Lays regions out in a file with filler between them; returns the DiffInfo chunks and line numbers. */
  private layoutFile(regions: Region[]) {
    const r = this.rng;
    const content: object[] = [];
    const starts: { editAStart: number; beforeStart: number }[] = [];
    let common = this.text.lines(regions[0].ctxB.length < 3 ? 0 : r.int(0, 60));
    let aLine = 1;
    let bLine = 1;
    regions.forEach((region, k) => {
      common.push(...region.ctxB);
      if (common.length > 0) content.push({ ab: common });
      aLine += common.length;
      bLine += common.length;
      starts.push({ editAStart: aLine, beforeStart: aLine - region.ctxB.length });
      content.push({ a: region.editA, b: region.editB });
      aLine += region.editA.length;
      bLine += region.editB.length;
      const last = k === regions.length - 1;
      const filler = last ? (region.ctxA.length < 3 ? 0 : r.int(0, 60)) : r.int(2, 40);
      common = [...region.ctxA, ...this.text.lines(filler)];
    });
    const lead = this.pad(regions, content as { ab?: string[] }[], common, aLine - 1 + common.length + 1);
    // Both versions end in "\n", which real Gerrit sends as a last line "" (test/fake-gerrit/README.md).
    common.push('');
    content.push({ ab: common });
    for (const st of starts) {
      st.editAStart += lead;
      st.beforeStart += lead;
    }
    this.fileLines.push(aLine - 1 + common.length + lead);
    return {
      content,
      starts,
      lead,
      aLines: aLine - 1 + common.length + lead,
      bLines: bLine - 1 + common.length + lead,
    };
  }

  /**
   * With realistic lengths: common lines added at the file's start and end until side A has the drawn
   * length (a file already longer stays as it is). Only where the classic layout has a run of filler
   * there (at least 3 context lines between it and the edit), so no hunk, merge or comment changes.
   * Returns the lines put before the first region; `tail` (the last common run) takes the rest.
   */
  private pad(regions: Region[], content: { ab?: string[] }[], tail: string[], lines: number): number {
    if (!this.padding) return 0;
    const want = realisticFileLines(this.padding.rng) - lines;
    const head = regions[0].ctxB.length >= 3 && content[0]?.ab !== undefined;
    const foot = regions[regions.length - 1].ctxA.length >= 3;
    if (want <= 0 || (!head && !foot)) return 0;
    const before = head && foot ? Math.floor(want * this.padding.rng.next()) : head ? want : 0;
    if (before > 0) content[0].ab = [...this.padding.text.lines(before), ...content[0].ab!];
    for (const line of this.padding.text.lines(want - before)) tail.push(line);
    return before;
  }

  private diffJson(path: string, layout: ReturnType<RecordMaker['layoutFile']>): string {
    const r = this.rng;
    return JSON.stringify({
      meta_a: { name: path, content_type: 'text/plain', lines: layout.aLines },
      meta_b: { name: path, content_type: 'text/plain', lines: layout.bLines },
      change_type: 'MODIFIED',
      diff_header: [
        `diff --git a/${path} b/${path}`,
        `index ${r.hex(12)}..${r.hex(12)} 100644`,
        `--- a/${path}`,
        `+++ b/${path}`,
      ],
      content: layout.content,
    });
  }
}

/** The same hunk with other whitespace only: wider indentation, trailing blanks. Normalises equal. */
function reformat(region: Region, rng: Rng): Region {
  const widen = (lines: string[]) =>
    lines.map((l, i) => l.replace(/^ +/, (s) => s + s) + (i === 0 || rng.chance(0.3) ? '  ' : ''));
  return { ctxB: widen(region.ctxB), editA: widen(region.editA), editB: widen(region.editB), ctxA: widen(region.ctxA) };
}
