// Every notification the extension shows goes through plainText, unless it is a fixed string: a message
// built from values may carry host text, and VS Code makes a link of `[label](command:…)` in it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const SINK = /\b(?:show(?:Error|Warning|Information)Message|progress\.report)\(\s*/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : [];
  });
}

describe('plainText at every notification of the extension', () => {
  it('each message is plainText(…) or a fixed string', () => {
    const files = [path.join(ROOT, 'src/extension.ts'), ...sources(path.join(ROOT, 'src/extension'))];
    const bare: string[] = [];
    let sinks = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(SINK)) {
        sinks++;
        const arg = text.slice(m.index + m[0].length);
        const fixed = /^'[^'\n]*'\s*[,)]/.test(arg);
        const safe = /^(?:\{\s*message:\s*)?plainText\(/.test(arg);
        if (!fixed && !safe)
          bare.push(
            `${path.relative(ROOT, file)}:${text.slice(0, m.index).split('\n').length}: ${arg.split('\n')[0].slice(0, 80)}`,
          );
      }
    }
    assert.ok(sinks > 10, `found ${sinks} notifications`);
    assert.deepEqual(bare, [], 'notifications whose message does not go through plainText');
  });
});
