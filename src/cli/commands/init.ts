import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CliCommand } from '../command';
import { UserError } from '../../core/store/errors';
import { findPreset, newCorpusConfig, presetNames, writeNewCorpusConfig, type HostPreset } from '../../core/config/presets';

export const initCommand: CliCommand = {
  name: 'init',
  summary: 'write a corpus.json for one or more host presets, with the windows of PRODUCT.md',
  usage: 'init --host <preset>[,<preset>…] [--out <corpus.json>] [--contact <e-mail or https URL>] [--name <name>] [--force]',
  options: { host: { type: 'string' }, out: { type: 'string' }, contact: { type: 'string' }, name: { type: 'string' }, force: { type: 'boolean' } },
  required: ['host'],
  async run(values, io) {
    const presets: HostPreset[] = [];
    for (const name of String(values.host).split(',').map((s) => s.trim()).filter(Boolean)) {
      const preset = findPreset(name);
      if (!preset) throw new UserError(`init: no host preset "${name}" (presets: ${presetNames()})`);
      if (!presets.includes(preset)) presets.push(preset);
    }
    const out = path.resolve(values.out === undefined ? 'corpus.json' : String(values.out));
    if (!values.force && existsSync(out)) throw new UserError(`init: ${out} already exists; nothing was written (--force replaces it)`);
    const config = newCorpusConfig(presets, {
      contact: values.contact === undefined ? undefined : String(values.contact),
      name: values.name === undefined ? undefined : String(values.name),
    }, out);
    writeNewCorpusConfig(out, config, values.force === true);
    io.out(`wrote ${out}: ${presets.map((p) => `${p.host.org} ${p.host.url} every ${p.host.minIntervalMs} ms`).join('; ')}`);
    if (values.contact === undefined) {
      io.err(`review-corpus: ${out} has no "contact": add an e-mail address or an https:// URL before fetching (it goes in the User-Agent)`);
    }
    return 0;
  },
};
