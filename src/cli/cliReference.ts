// docs/cli.md's reference part: each command's summary and its `--help`, written from the commands'
// own declarations (src/cli/commands/) between the markers below by `npm run docs`
// (scripts/generate-docs.mjs); a unit test fails when the page drifts from what `--help` prints.
import { helpText, type CliCommand } from './command';
import { COMMANDS } from './commands';
import { headingAnchor } from '../core/rules/rulesReference';

export const CLI_REFERENCE_START = '<!-- cli-reference:start -->';
export const CLI_REFERENCE_END = '<!-- cli-reference:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/</g, '&lt;');

/** The generated part of docs/cli.md, markers included. */
export function cliReference(commands: readonly CliCommand[] = COMMANDS): string {
  const rows = commands.map((c) => `| [\`${c.name}\`](#${headingAnchor(`\`${c.name}\``)}) | ${cell(c.summary)} |`);
  const sections = commands.flatMap((c) => [
    `### \`${c.name}\``,
    '',
    `\`review-corpus ${c.name} --help\`:`,
    '',
    '```text',
    helpText(c),
    '```',
    '',
  ]);
  return [
    CLI_REFERENCE_START,
    "<!-- Generated from the commands' own help by `npm run docs`; edit src/cli/commands/, not this part. -->",
    '',
    '## Commands',
    '',
    '| command | what it does |',
    '| --- | --- |',
    ...rows,
    '',
    ...sections,
    CLI_REFERENCE_END,
  ].join('\n');
}

/** `page` with its generated part replaced; undefined when the markers are missing. */
export function withCliReference(page: string): string | undefined {
  const start = page.indexOf(CLI_REFERENCE_START);
  const end = page.indexOf(CLI_REFERENCE_END);
  if (start < 0 || end < start) return undefined;
  return page.slice(0, start) + cliReference() + page.slice(end + CLI_REFERENCE_END.length);
}
