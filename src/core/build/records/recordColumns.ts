// The exported record's fields as typed columns, read from its one declaration (recordSchema.ts): the
// Hub export's Parquet schema and the card's `dataset_info.features` are both made from this tree, so
// a field added to the record appears in all three (the JSON schema, the Parquet file, the card) or a
// test fails. The mapping is small on purpose, and anything the walk does not know throws, naming the
// field, rather than falling back to a JSON string:
//   string, ["string", null], an enum of strings (and null)  → string
//   integer, ["integer", null]                              → int64
//   const true                                               → bool (present and true, or absent)
//   object with properties (or [object, null])               → struct of its properties, in order
//   array of objects / of integers ([array, null] too)       → list of that struct / of int64
// A field is nullable when its type admits null or the object does not require it: in Parquet an
// absent optional field and a null one read the same, as null.
import { buildRecordSchema } from './recordSchema';

type Schema = Record<string, unknown>;

export type RecordColumn =
  | { name: string; kind: 'string' | 'int64' | 'bool'; nullable: boolean }
  | { name: string; kind: 'struct'; nullable: boolean; fields: RecordColumn[] }
  | { name: string; kind: 'list'; nullable: boolean; element: RecordColumn };

/** The record's top-level columns, in declaration order (the JSONL line's key order). */
export function recordColumns(): RecordColumn[] {
  return structFields(buildRecordSchema(), '');
}

function structFields(schema: Schema, prefix: string): RecordColumn[] {
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([name, field]) =>
    column(name, field, !required.has(name), prefix + name),
  );
}

function column(name: string, field: Schema, optional: boolean, path: string): RecordColumn {
  const types = ([] as unknown[]).concat(field.type ?? []);
  const nullable = optional || types.includes('null');
  if ('const' in field) {
    if (field.const !== true) throw new Error(`record field ${path}: only const true is a column (bool)`);
    return { name, kind: 'bool', nullable: true };
  }
  if (Array.isArray(field.enum)) {
    if (!field.enum.every((v) => typeof v === 'string' || v === null))
      throw new Error(`record field ${path}: an enum of strings only`);
    return { name, kind: 'string', nullable: nullable || field.enum.includes(null) };
  }
  const base = types.filter((t) => t !== 'null');
  if (base.length !== 1)
    throw new Error(`record field ${path}: one type (and null) per column, not ${types.join(', ')}`);
  switch (base[0]) {
    case 'string':
      return { name, kind: 'string', nullable };
    case 'integer':
      return { name, kind: 'int64', nullable };
    case 'object':
      return { name, kind: 'struct', nullable, fields: structFields(field, `${path}.`) };
    case 'array': {
      const items = field.items as Schema | undefined;
      if (!items) throw new Error(`record field ${path}: an array needs items`);
      // List elements are never null in the record: the element is required.
      const element = column('element', items, false, `${path}[]`);
      if (element.nullable) throw new Error(`record field ${path}[]: a list element may not be null`);
      return { name, kind: 'list', nullable, element };
    }
    default:
      throw new Error(`record field ${path}: type ${String(base[0])} has no column type`);
  }
}
