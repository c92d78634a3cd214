// The JSON Schema of one exported example (a line of the JSONL export, publishedRecords.ts), declared
// once: `npm run schema` (scripts/generate-schema.mjs) writes it to schemas/example.schema.json, the
// dataset card's "Record fields" table is generated from it (recordFieldRows), and a unit test validates
// exported records against it, so a field added to the record without a word here fails that test.
//
// Strict: every object refuses fields it does not declare, and every field is required but the two
// that are absent by design (`rewritten_comment`, `kind_unrecorded`).

type Schema = Record<string, unknown>;

/** An object whose every property is required but `optional`, refusing any other. */
function object(description: string, properties: Record<string, Schema>, optional: readonly string[] = []): Schema {
  return {
    type: 'object',
    description,
    additionalProperties: false,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
  };
}

const string = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const nullableString = (description: string, extra: Schema = {}): Schema => ({
  type: ['string', 'null'],
  description,
  ...extra,
});
const integer = (description: string, minimum = 0): Schema => ({ type: 'integer', minimum, description });
const lineRange = (description: string): Schema => ({
  type: ['array', 'null'],
  items: { type: 'integer', minimum: 1 },
  minItems: 2,
  maxItems: 2,
  description,
});

function sourceSchema(): Schema {
  return object(
    'Where the example came from on its Gerrit host: enough to find the change, both revisions and both files, and fetch the same bytes again with `GET <host>/changes/<change>/revisions/<revision>/files/<file, URL-encoded>/content` (base64).',
    {
      host: string('The host\'s base URL, as the corpus config names it (no trailing "/", no user name or password).', {
        format: 'uri',
      }),
      project: string("The change's Gerrit project."),
      change: integer('The change number on its host.', 1),
      change_url: string(
        "The change's page: `<host>/c/<project>/+/<change>`, each segment of the project percent-encoded (`<host>/c/<change>`, which Gerrit redirects, for a project with an empty, `.` or `..` segment).",
        { format: 'uri' },
      ),
      patchset_before: integer('Patch set N, where the comments were written.', 1),
      patchset_after: integer("Patch set N + 1, the author's answer.", 1),
      revision_before: nullableString(
        'The commit SHA Gerrit listed for patch set N (40 hex digits on a Gerrit host); null: the corpus file holds no revision for it.',
      ),
      revision_after: nullableString(
        'The commit SHA Gerrit listed for patch set N + 1; null: the corpus file holds no revision for it.',
      ),
      file_before: nullableString(
        "The file's path at `revision_before`; null: the file does not exist there (patch set N + 1 added it).",
      ),
      file_after: nullableString(
        "The file's path at `revision_after`, which differs from `file_before` where patch set N + 1 renamed the file; null: patch set N + 1 deleted it.",
      ),
      lines_before: lineRange(
        '`[first, last]`, 1-based and inclusive: the lines of `file_before` at `revision_before` that `before` holds, byte for byte, each with its line ending; null: `before` is empty.',
      ),
      lines_after: lineRange(
        '`[first, last]`: the lines of `file_after` at `revision_after` that `after` holds; null: `after` is empty.',
      ),
      kind_unrecorded: {
        const: true,
        description:
          'Present, and true, only where Gerrit sent no revision kind for patch set N + 1, so `rebase_only` could not check it; absent otherwise.',
      },
    },
    ['kind_unrecorded'],
  );
}

function commentSchema(): Schema {
  return object(
    'One kept reviewer comment anchored in the hunk.',
    {
      author: nullableString(
        "The author's salted pseudonym (`u_` and 16 hex digits), never an account; null: none sent.",
        {
          pattern: '^u_[0-9a-f]{16}$',
        },
      ),
      message: string(
        "The comment's text; identities the host showed are replaced by pseudonyms, other e-mail addresses by a placeholder.",
      ),
      line: { type: ['integer', 'null'], minimum: 1, description: 'The line of patch set N it is anchored on.' },
      range: {
        ...object('The characters it marks, as Gerrit sent them; null: it marks the whole line.', {
          start_line: integer('First line.', 1),
          start_character: integer('Character offset in the first line.'),
          end_line: integer('Last line.', 1),
          end_character: integer('Character offset in the last line (0: the range ends before that line).'),
        }),
        type: ['object', 'null'],
      },
      rewritten_comment: object(
        'Model rewrites of the comment, by mode (`judge --reformulate`), beside the original; absent: none.',
        {
          curev: string('The CuREV rewrite.'),
          'curev+': string('The CuREV+ rewrite.'),
        },
        ['curev', 'curev+'],
      ),
    },
    ['rewritten_comment'],
  );
}

/** The schema of one exported example. */
export function buildRecordSchema(): Schema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'review-corpus/example.schema.json',
    title: 'One exported example (a line of the JSONL export)',
    ...object('Generated from src/core/build/records/recordSchema.ts by `npm run schema`; do not edit by hand.', {
      id: string(
        "The example's key, `<org>/<change>/<patch set N>/<first line at N>/<path>` (with `#2`, `#3`… where one place holds several hunks); the same in every build.",
      ),
      org: string('The organization, as the corpus config names its host.'),
      project: string("The change's Gerrit project."),
      change: integer('The change number on its host.', 1),
      created: string('When the change was created (ISO 8601, UTC).', { format: 'date-time' }),
      window: nullableString("The time window the change's creation falls in; null: outside every window."),
      half: {
        enum: ['a', 'b', null],
        description: 'The registered half of the window; null: in neither half, or none registered.',
      },
      path: string("The file's path at patch set N."),
      language: nullableString("The language read from the file's name; null: not recorded."),
      psBefore: integer('Patch set N, where the comments were written.', 1),
      psAfter: integer("Patch set N + 1, the author's answer.", 1),
      before: string(
        'The hunk at patch set N: exactly the lines `source.lines_before` of the file Gerrit serves (a CRLF line keeps its "\\r").',
      ),
      after: string('The same region at patch set N + 1: exactly the lines `source.lines_after`.'),
      rebaseEditedLines: integer(
        "Edited lines (both sides) Gerrit marked `due_to_rebase`: upstream code in `after`, not the author's answer.",
      ),
      comments: { type: 'array', minItems: 1, items: commentSchema(), description: 'The kept comments, oldest first.' },
      flags: {
        type: 'array',
        description: 'Flags raised on the example (a suspected reviewer-written target, …) and what a rater decided.',
        items: object('One flag.', {
          reason: string('Why it was raised.'),
          status: { enum: ['open', 'confirmed', 'dismissed'], description: 'What a rater decided.' },
        }),
      },
      source: sourceSchema(),
    }),
  };
}

export function recordSchemaText(): string {
  return JSON.stringify(buildRecordSchema(), null, 2) + '\n';
}

export interface RecordFieldRow {
  /** Dotted path: `source.lines_before`, `comments[].author`. */
  field: string;
  type: string;
  description: string;
  optional: boolean;
}

/** Every field of the record, depth first in declaration order: the dataset card's "Record fields" table. */
export function recordFieldRows(): RecordFieldRow[] {
  const rows: RecordFieldRow[] = [];
  const walk = (schema: Schema, prefix: string) => {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = new Set((schema.required ?? []) as string[]);
    for (const [name, field] of Object.entries(properties)) {
      const path = prefix + name;
      rows.push({
        field: path,
        type: typeText(field),
        description: String(field.description),
        optional: !required.has(name),
      });
      if (field.properties) walk(field, `${path}.`);
      const items = field.items as Schema | undefined;
      if (items?.properties) walk(items, `${path}[].`);
    }
  };
  walk(buildRecordSchema(), '');
  return rows;
}

/** A field's type in words: `integer`, `string or null`, `array of objects`, `[integer, integer] or null`. */
function typeText(schema: Schema): string {
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' or ');
  const types = ([] as string[]).concat(schema.type as string | string[]);
  const items = schema.items as Schema | undefined;
  return types
    .map((t) => {
      if (t !== 'array' || !items) return t;
      if (schema.minItems === 2 && schema.maxItems === 2) return `[${items.type}, ${items.type}]`;
      return `array of ${items.type}s`;
    })
    .join(' or ');
}
