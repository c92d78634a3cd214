import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CliCommand } from '../command';
import { UserError } from '../../core/ground/store/errors';
import {
  findPreset,
  newCorpusConfig,
  presetNames,
  writeNewCorpusConfig,
  type HostPreset,
} from '../../core/rules/corpusJson/presets';

export const initCommand: CliCommand = {
  name: 'init',
  summary: 'write a corpus.json for one or more host presets, with the default windows (pilot, train, dev, test)',
  options: {
    host: {
      type: 'string',
      arg: '<preset>[,<preset>…]',
      description: `the hosts to read, comma-separated: ${presetNames()}`,
      required: true,
    },
    out: { type: 'string', arg: '<corpus.json>', description: 'where to write the config (default corpus.json)' },
    contact: {
      type: 'string',
      arg: '<e-mail or https URL>',
      description: "how a host's admins reach you, sent in the User-Agent (fetch refuses to run without it)",
    },
    name: { type: 'string', arg: '<name>', description: "the corpus's name (default the organizations, joined by -)" },
    force: { type: 'boolean', description: 'replace the file if it exists' },
  },
  async run(values, io) {
    const presets: HostPreset[] = [];
    for (const name of String(values.host)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const preset = findPreset(name);
      if (!preset) throw new UserError(`init: no host preset "${name}" (presets: ${presetNames()})`);
      if (!presets.includes(preset)) presets.push(preset);
    }
    const out = path.resolve(values.out === undefined ? 'corpus.json' : String(values.out));
    if (!values.force && existsSync(out))
      throw new UserError(`init: ${out} already exists; nothing was written (--force replaces it)`);
    const config = newCorpusConfig(
      presets,
      {
        contact: values.contact === undefined ? undefined : String(values.contact),
        name: values.name === undefined ? undefined : String(values.name),
      },
      out,
    );
    writeNewCorpusConfig(out, config, values.force === true);
    io.out(
      `wrote ${out}: ${presets.map((p) => `${p.host.org} ${p.host.url} every ${p.host.minIntervalMs} ms`).join('; ')}; cross-window decontamination off (decontam.crossWindow)`,
    );
    if (values.contact === undefined) {
      io.err(
        `review-corpus: ${out} has no "contact": add an e-mail address or an https:// URL before fetching (it goes in the User-Agent)`,
      );
    }
    return 0;
  },
};
