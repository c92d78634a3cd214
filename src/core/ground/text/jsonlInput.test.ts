import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jsonlObjects, readInputFile } from './jsonlInput';

const shape = { at: (n: number) => `f.jsonl:${n}`, object: '{id}', fields: ['id'] };

describe('JSONL input', () => {
  it('yields the non-blank lines as objects with their 1-based line numbers, CRLF or not', () => {
    assert.deepEqual(
      [...jsonlObjects('{"id": 1}\r\n\n  \n{"id": "b"}', shape)],
      [
        { line: 1, at: 'f.jsonl:1', value: { id: 1 } },
        { line: 4, at: 'f.jsonl:4', value: { id: 'b' } },
      ],
    );
  });

  it('names the line of bad JSON, of a non-object and of an unknown field', () => {
    assert.throws(() => [...jsonlObjects('{"id": 1}\n{"id": ', shape)], /^UserError: f\.jsonl:2: not valid JSON/);
    assert.throws(() => [...jsonlObjects('[1]', shape)], { message: 'f.jsonl:1: a line must be a JSON object {id}' });
    assert.throws(() => [...jsonlObjects('{"id": 1, "idd": 2}', shape)], {
      message: 'f.jsonl:1: "idd" is not a known field (known: id)',
    });
  });

  it("reaches a later line only when asked, so the caller's check of an earlier line fails first", () => {
    const lines = jsonlObjects('{"id": null}\nnot json', shape);
    assert.equal(lines.next().value?.line, 1);
  });

  it('reads a file, and names an unreadable one with what it was meant to be', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jsonl-'));
    try {
      writeFileSync(path.join(dir, 'a.jsonl'), '{"id": 1}\n');
      assert.equal(readInputFile(path.join(dir, 'a.jsonl'), 'labels file'), '{"id": 1}\n');
      const missing = path.join(dir, 'none.jsonl');
      assert.throws(() => readInputFile(missing, 'labels file'), {
        message: `${missing}: cannot read the labels file (ENOENT)`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
