// What the CLI prints from a corpus file is host text (paths, suffixes, dates): it goes out through
// core/ground/text/visibleEscapes.ts, so none of it can drive the terminal or reorder a line.
import { visibleEscapes, visibleEscapesInJson } from '../core/ground/text/visibleEscapes';

/** A copy of a parsed JSON value with every string, keys included, escaped: for tables made from it. */
export function visibleStrings<T>(value: T): T {
  if (typeof value === 'string') return visibleEscapes(value) as T;
  if (Array.isArray(value)) return value.map(visibleStrings) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [visibleEscapes(k), visibleStrings(v)])) as T;
  }
  return value;
}

/** Indented JSON, printable as it is and still the same value. */
export function printableJson(value: unknown): string {
  return visibleEscapesInJson(JSON.stringify(value, null, 2));
}
