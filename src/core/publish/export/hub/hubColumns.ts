// The Hub export's two renderings of the record's typed columns (build/records/recordColumns.ts, read
// from the record's JSON schema): the Parquet schema the shards are written with, and the card's
// `dataset_info.features` (the `datasets` library's YAML form of its Features). Plus the conversion of
// one exported JSON record into the row the Parquet writer takes, which refuses anything the schema
// does not declare, so no field is dropped on the way without a word.
import type { SchemaElement } from 'hyparquet-writer';
import { recordColumns, type RecordColumn } from '../../../build/records/recordColumns';
import { UserError } from '../../../ground/store/errors';
import { LONE_SURROGATE } from '../../../ground/store/diffText';

/** The Parquet schema of a shard: the root, then every column depth first (3-level LISTs, as Arrow writes them). */
export function parquetSchema(columns: readonly RecordColumn[] = recordColumns()): SchemaElement[] {
  const out: SchemaElement[] = [{ name: 'root', num_children: columns.length }];
  const add = (c: RecordColumn, repetition: 'REQUIRED' | 'OPTIONAL') => {
    switch (c.kind) {
      case 'string':
        out.push({ name: c.name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: repetition });
        return;
      case 'int64':
        out.push({ name: c.name, type: 'INT64', repetition_type: repetition });
        return;
      case 'bool':
        out.push({ name: c.name, type: 'BOOLEAN', repetition_type: repetition });
        return;
      case 'struct':
        out.push({ name: c.name, repetition_type: repetition, num_children: c.fields.length });
        for (const f of c.fields) add(f, f.nullable ? 'OPTIONAL' : 'REQUIRED');
        return;
      case 'list':
        out.push({ name: c.name, repetition_type: repetition, converted_type: 'LIST', num_children: 1 });
        out.push({ name: 'list', repetition_type: 'REPEATED', num_children: 1 });
        add(c.element, 'REQUIRED');
    }
  };
  for (const c of columns) add(c, c.nullable ? 'OPTIONAL' : 'REQUIRED');
  return out;
}

/** A feature as `datasets` writes it in a card (Features._to_yaml_list, simplified): dtype, struct or list. */
export type HubFeature = { name: string } & (
  { dtype: string } | { struct: HubFeature[] } | { list: string | HubFeature[] }
);

const DTYPE = { string: 'string', int64: 'int64', bool: 'bool' } as const;

/** The card's `dataset_info.features`, from the same columns as the Parquet schema. */
export function hubFeatures(columns: readonly RecordColumn[] = recordColumns()): HubFeature[] {
  const feature = (c: RecordColumn): HubFeature => {
    if (c.kind === 'struct') return { name: c.name, struct: c.fields.map(feature) };
    if (c.kind === 'list') {
      const e = c.element;
      if (e.kind === 'struct') return { name: c.name, list: e.fields.map(feature) };
      if (e.kind === 'list') throw new Error(`record field ${c.name}: a list of lists has no card feature here`);
      return { name: c.name, list: DTYPE[e.kind] };
    }
    return { name: c.name, dtype: DTYPE[c.kind] };
  };
  return columns.map(feature);
}

/** The features as YAML lines (every name a JSON string, which YAML reads as a double-quoted scalar). */
export function featureYaml(features: readonly HubFeature[], indent: string): string[] {
  const q = (s: string) => JSON.stringify(s);
  const lines: string[] = [];
  for (const f of features) {
    lines.push(`${indent}- name: ${q(f.name)}`);
    const inner = `${indent}  `;
    if ('dtype' in f) lines.push(`${inner}dtype: ${q(f.dtype)}`);
    else if ('struct' in f) lines.push(`${inner}struct:`, ...featureYaml(f.struct, inner));
    else if (typeof f.list === 'string') lines.push(`${inner}list: ${q(f.list)}`);
    else lines.push(`${inner}list:`, ...featureYaml(f.list, inner));
  }
  return lines;
}

type Convert = (value: unknown, id: string) => unknown;

/**
 * A function from one parsed JSONL record to its Parquet row: integers as BigInt (INT64), absent
 * optional fields as null. Throws a one-line UserError naming the example and the field for a value
 * the column cannot hold exactly: a key the schema does not declare, a wrong type, or text with a lone
 * UTF-16 surrogate (JSON escapes one; Parquet's UTF-8 cannot hold it, and would write U+FFFD instead).
 */
export function rowConverter(columns: readonly RecordColumn[] = recordColumns()): (record: unknown) => unknown {
  const top = structConverter(columns, '');
  return (record) => top(record, String((record as { id?: unknown })?.id ?? '?'));
}

function converter(c: RecordColumn, path: string): Convert {
  const bad = (id: string, what: string): never => {
    throw new UserError(`example ${id}: field ${path} ${what}; it cannot be written to Parquet as it is`);
  };
  const inner = innerConverter(c, path, bad);
  return (value, id) => {
    if (value === null || value === undefined) return c.nullable ? null : bad(id, 'is missing');
    return inner(value, id);
  };
}

function innerConverter(c: RecordColumn, path: string, bad: (id: string, what: string) => never): Convert {
  switch (c.kind) {
    case 'string':
      return (v, id) => {
        if (typeof v !== 'string') return bad(id, 'is not a string');
        return LONE_SURROGATE.test(v) ? bad(id, 'holds a lone UTF-16 surrogate') : v;
      };
    case 'int64':
      return (v, id) => (Number.isSafeInteger(v) ? BigInt(v as number) : bad(id, 'is not an integer'));
    case 'bool':
      return (v, id) => (typeof v === 'boolean' ? v : bad(id, 'is not true or false'));
    case 'struct':
      return structConverter(c.fields, `${path}.`);
    case 'list': {
      const element = converter(c.element, `${path}[]`);
      return (v, id) => (Array.isArray(v) ? v.map((e) => element(e, id)) : bad(id, 'is not a list'));
    }
  }
}

function structConverter(fields: readonly RecordColumn[], prefix: string): Convert {
  const names = new Set(fields.map((f) => f.name));
  const converters = fields.map((f) => [f.name, converter(f, prefix + f.name)] as const);
  return (v, id) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw new UserError(`example ${id}: field ${prefix.slice(0, -1) || 'record'} is not an object`);
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o))
      if (!names.has(k))
        throw new UserError(
          `example ${id}: field ${prefix}${k} is not in the record's schema (schemas/example.schema.json), so Parquet has no column for it`,
        );
    const row: Record<string, unknown> = {};
    for (const [name, convert] of converters) row[name] = convert(o[name], id);
    return row;
  };
}
