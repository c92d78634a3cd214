import assert from 'node:assert/strict';
import { languageOf } from './language';

describe('languageOf', () => {
  const cases: [string, string][] = [
    ['nova/api/openstack/compute/servers.py', 'python'],
    ['doc/source/index.rst', 'restructuredtext'],
    ['src/corelib/qstring.cpp', 'cpp'],
    ['include/QString.H', 'cpp'],
    ['build/Makefile', 'makefile'],
    ['README', 'plaintext'],
    ['.gitignore', 'plaintext'],
    ['weird.unknownsuffix', 'plaintext'],
  ];
  for (const [path, lang] of cases) it(`${path} → ${lang}`, () => assert.equal(languageOf(path), lang));
});
