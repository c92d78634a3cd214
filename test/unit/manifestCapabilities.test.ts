// package.json's walkthrough, settings scopes and untrusted-workspace declaration: what VS Code reads from the
// manifest alone, so a wrong id shows nothing and fails nowhere else.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pkg from '../../package.json';
import { Commands } from '../../src/extension/ids/commands';
import { ContextKeys } from '../../src/extension/ids/contextKeys';
import { SETTINGS_SECTION, Settings } from '../../src/extension/ids/settings';
import { Views } from '../../src/extension/ids/views';
import { Walkthroughs } from '../../src/extension/ids/walkthroughs';

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string; altText?: string };
  completionEvents?: string[];
}
const walkthroughs = (pkg.contributes as unknown as { walkthroughs: { id: string; title: string; steps: Step[] }[] })
  .walkthroughs;
const commandIds = new Set<string>(pkg.contributes.commands.map((c) => c.command));
// VS Code gives every view a `<view id>.focus` command of its own.
const viewFocusCommands = new Set(
  Object.values(pkg.contributes.views)
    .flat()
    .map((v) => `${v.id}.focus`),
);
const contextKeys = new Set<string>(Object.values(ContextKeys));

describe('package.json walkthrough', () => {
  it('contributes exactly the walkthroughs of the Walkthroughs module', () => {
    assert.deepEqual(walkthroughs.map((w) => w.id).sort(), Object.values(Walkthroughs).sort());
  });

  it('leads from the sample through an example, a label and a rebuild to New Corpus…', () => {
    const steps = walkthroughs.find((w) => w.id === Walkthroughs.gettingStarted)!.steps;
    const completedBy = steps.map((s) =>
      (s.completionEvents ?? []).filter((e) => e.startsWith('onCommand:')).map((e) => e.slice('onCommand:'.length)),
    );
    assert.ok(completedBy[0].includes(Commands.createSampleCorpus));
    assert.ok(completedBy[1].includes(Commands.openItem));
    assert.ok(completedBy[2].includes(Commands.labelAnswers) && completedBy[2].includes(Commands.label));
    assert.ok(completedBy[3].includes(Commands.rebuild));
    assert.ok(completedBy.at(-1)!.includes(Commands.newCorpus));
  });

  it('names only commands the extension contributes, context keys it sets, and media files it ships', () => {
    for (const w of walkthroughs) {
      const ids = new Set<string>();
      for (const step of w.steps) {
        assert.ok(!ids.has(step.id), `step id ${step.id} is unique`);
        ids.add(step.id);
        assert.ok(step.completionEvents?.length, `${step.id} has completion events`);
        for (const event of step.completionEvents!) {
          const [kind, arg] = [event.slice(0, event.indexOf(':')), event.slice(event.indexOf(':') + 1)];
          if (kind === 'onCommand') assert.ok(commandIds.has(arg), `${step.id}: ${event} is a contributed command`);
          else if (kind === 'onContext')
            assert.ok(contextKeys.has(arg), `${step.id}: ${event} is a context key of ContextKeys`);
          else assert.fail(`${step.id}: completion event ${event} is not checked here`);
        }
        const linked = [...step.description.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]);
        assert.ok(linked.length > 0, `${step.id} has a command button`);
        for (const c of linked)
          assert.ok(
            commandIds.has(c) || viewFocusCommands.has(c),
            `${step.id}: the link to ${c} runs a contributed command`,
          );
        const media = step.media.markdown ?? step.media.image;
        assert.ok(media && existsSync(path.resolve(media)), `${step.id}: its media ${media} exists`);
        assert.ok(media.startsWith('media/'), `${step.id}: its media is under media/, which the VSIX ships`);
      }
    }
    assert.ok(viewFocusCommands.has(`${Views.tree}.focus`));
  });
});

describe('package.json settings and workspace trust', () => {
  const properties = pkg.contributes.configuration.properties as Record<string, { scope?: string }>;

  it('contributes exactly the settings of the Settings module, each with a scope', () => {
    assert.deepEqual(
      Object.keys(properties).sort(),
      Object.values(Settings)
        .map((k) => `${SETTINGS_SECTION}.${k}`)
        .sort(),
    );
    for (const [key, p] of Object.entries(properties)) {
      assert.ok(
        ['application', 'machine', 'window', 'resource', 'language-overridable', 'machine-overridable'].includes(
          p.scope ?? '',
        ),
        `${key} declares a scope`,
      );
    }
  });

  it('is limited in untrusted workspaces, ignoring a workspace corpus path there', () => {
    const trust = (
      pkg as unknown as {
        capabilities: {
          untrustedWorkspaces: { supported: string; description: string; restrictedConfigurations: string[] };
        };
      }
    ).capabilities.untrustedWorkspaces;
    assert.equal(trust.supported, 'limited');
    assert.match(trust.description, /Fetch/);
    assert.deepEqual(trust.restrictedConfigurations, [`${SETTINGS_SECTION}.${Settings.corpus}`]);
    for (const key of trust.restrictedConfigurations) assert.ok(key in properties, `${key} is a contributed setting`);
  });
});
