// A user's JSONL input (reference sets, rater labels): one object a line, every problem one line that
// names the file and the line, so the two importers cannot drift apart in what they accept.
import { readFileSync } from 'node:fs';
import { UserError } from '../store/errors';

export interface JsonlObject {
  /** 1-based line number. */
  line: number;
  /** How messages name the line, e.g. `refs.jsonl:3`. */
  at: string;
  value: Record<string, unknown>;
}

export interface JsonlShape {
  /** Names line n in a message (each importer keeps the wording its users and tests know). */
  at: (line: number) => string;
  /** What a line must be, as the error says it: `{id, before?, after?, comment?}`. */
  object: string;
  /** The only keys a line may hold. */
  fields: readonly string[];
}

/**
 * The non-blank lines of `text` (a "\r" before "\n" dropped), each checked to be an object of known
 * fields. Lazy, so an importer's own checks of line 1 fail before line 2 is parsed, as line by line.
 */
export function* jsonlObjects(text: string, shape: JsonlShape): Generator<JsonlObject> {
  const known = new Set(shape.fields);
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    const at = shape.at(i + 1);
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new UserError(`${at}: not valid JSON (${(e as Error).message})`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new UserError(`${at}: a line must be a JSON object ${shape.object}`);
    for (const k of Object.keys(value))
      if (!known.has(k)) throw new UserError(`${at}: "${k}" is not a known field (known: ${shape.fields.join(', ')})`);
    yield { line: i + 1, at, value: value as Record<string, unknown> };
  }
}

/** An input file's text; one that cannot be read is a UserError naming it and what it was meant to be. */
export function readInputFile(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(
      `${file}: cannot read the ${what} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
}
