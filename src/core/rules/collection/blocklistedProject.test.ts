import { DEFAULT_RULES } from '../ruleParameters';
import { changeUnit, decidesTable, testContext } from '../testKit';
import { blocklistedProject } from './blocklistedProject';

describe('rule collection/blocklisted_project', () => {
  describe('with the default (empty) blocklist', () => {
    decidesTable(blocklistedProject, [['any project', changeUnit({ project: 'openstack/nova' }), null]]);
  });
  describe('with openstack/nova blocklisted', () => {
    decidesTable(
      blocklistedProject,
      [
        ['a change of openstack/nova', changeUnit({ project: 'openstack/nova' }), 'blocklisted_project'],
        ['a project whose name only starts the same', changeUnit({ project: 'openstack/nova-specs' }), null],
        ['another project', changeUnit({ project: 'openstack/neutron' }), null],
        ['project not known', changeUnit(), null],
      ],
      testContext({ rules: { ...DEFAULT_RULES, projectBlocklist: ['openstack/nova'] } }),
    );
  });
});
