/**
 * A read model's table as one definition (the shape of emmett's projection objects): its columns,
 * its conflict key, how a row written again changes the stored one. The folder that owns the read
 * model gives the definition and the function from a state to its rows; every writer (the append
 * of a command, the rebuild, the restore) writes those rows with the statements built here, one
 * per table for a whole batch, arrays in: the same SQL text for any number of rows.
 */
import type { DataSource, QueryRunner } from 'typeorm';

export interface ReadModelColumn {
  name: string;
  /** Its PostgreSQL type. A `jsonb` value is given as its JSON text, never null. */
  type: string;
  /**
   * The global position of the stream's last event the row reflects: a command's append fills it
   * in from the events it inserted (rows give null there); a rebuild and a restore give it.
   */
  position?: true;
}

export interface ReadModel {
  /** The live table; a rebuild writes a shadow of it (ReadModelTables). */
  table: string;
  /** In the order each row gives its values. */
  columns: readonly ReadModelColumn[];
  /** The unique key a row written again meets. */
  key: readonly string[];
  /**
   * The SET of ON CONFLICT DO UPDATE (the stored row is `t`, the new one `excluded`); none: a row
   * written again leaves the stored one as it is (DO NOTHING).
   */
  update?: string;
}

/** Rows of one read model, one array of values per row (ReadModel.columns' order). */
export interface ReadModelRows {
  model: ReadModel;
  rows: unknown[][];
}

/** A whole-row update: every column but the key from the new row. */
export function updateAll(columns: readonly ReadModelColumn[], key: readonly string[]): string {
  return columns
    .filter(({ name }) => !key.includes(name))
    .map(({ name }) => `${name} = excluded.${name}`)
    .join(', ');
}

/** The parameter of a column: JSON documents as one text of JSON lines (JSON never holds a raw newline). */
function arrayOf({ type }: ReadModelColumn): string {
  if (type === 'jsonb') return 'text';
  // Arrays go as their text, each cast where it is selected: a parameter cannot be an array of arrays.
  return type.endsWith('[]') ? 'text[]' : `${type}[]`;
}

function unnestArgument(column: ReadModelColumn, placeholder: string): string {
  return column.type === 'jsonb'
    ? `string_to_array(${placeholder}::text, E'\\n')`
    : `${placeholder}::${arrayOf(column)}`;
}

function selected(column: ReadModelColumn, alias: string): string {
  return column.type === 'jsonb' || column.type.endsWith('[]')
    ? `${alias}.${column.name}::${column.type}`
    : `${alias}.${column.name}`;
}

/**
 * The upsert of `model` into `table` from the relation `source` (alias r), whose columns are
 * named as the model's; `positionOf`: the SQL of the position column, when the source has none.
 */
export function upsertSql(model: ReadModel, table: string, source: string, positionOf?: string): string {
  const names = model.columns.map(({ name }) => name).join(', ');
  const values = model.columns
    .map((column) => (column.position && positionOf ? positionOf : selected(column, 'r')))
    .join(', ');
  const conflict = model.update ? `UPDATE SET ${model.update}` : 'NOTHING';
  return `INSERT INTO ${table} AS t (${names}) SELECT ${values} FROM ${source}
    ON CONFLICT (${model.key.join(', ')}) DO ${conflict}`;
}

/** Column arrays of `rows`, JSON documents joined as lines: the parameters of an unnest. */
export function columnParams(
  columns: readonly ReadModelColumn[],
  rows: unknown[][],
  skip?: number[],
): unknown[] {
  const params: unknown[] = [];
  columns.forEach((column, index) => {
    if (skip?.includes(index)) return;
    const values = new Array<unknown>(rows.length);
    for (let row = 0; row < rows.length; row++) values[row] = rows[row][index];
    params.push(column.type === 'jsonb' ? values.join('\n') : values);
  });
  return params;
}

/**
 * The unnest of `columns` from the parameters numbered from `first`, as the relation r with the
 * columns' names (and `leading` columns before them, e.g. the stream id of a command's rows).
 */
export function unnestSource(
  columns: readonly ReadModelColumn[],
  first: number,
  leading: ReadModelColumn[] = [],
): string {
  const all = [...leading, ...columns];
  const args = all.map((column, index) => unnestArgument(column, `$${first + index}`));
  return `unnest(${args.join(', ')}) AS r(${all.map(({ name }) => name).join(', ')})`;
}

/**
 * Writes `rows` of `model` into `table` (its live table by default) in one statement: the bulk
 * path of the rebuild and the restore, and the write of a single projected row.
 */
export async function writeRows(
  db: DataSource | QueryRunner,
  model: ReadModel,
  rows: unknown[][],
  table = model.table,
): Promise<void> {
  if (!rows.length) return;
  await runPrepared(
    db,
    upsertSql(model, table, unnestSource(model.columns, 1)),
    columnParams(model.columns, rows),
  );
}

/**
 * Writes the rows of several read models in one statement (one round trip), each into its table
 * (its live table by default). The tables must differ: one statement sees none of its own writes.
 */
export async function writeTogether(
  db: DataSource | QueryRunner,
  writes: { model: ReadModel; rows: unknown[][]; table?: string }[],
): Promise<void> {
  const present = writes.filter(({ rows }) => rows.length);
  if (present.length <= 1) {
    for (const { model, rows, table } of present) await writeRows(db, model, rows, table);
    return;
  }
  let next = 1;
  const ctes = present.map(({ model, table = model.table }, index) => {
    const source = unnestSource(model.columns, next);
    next += model.columns.length;
    return `w${index} AS (${upsertSql(model, table, source)})`;
  });
  await runPrepared(
    db,
    `WITH ${ctes.join(', ')} SELECT 1`,
    present.flatMap(({ model, rows }) => columnParams(model.columns, rows)),
  );
}

const names = new Map<string, string>();

/**
 * Runs `text` as a named (prepared) statement: node-pg parses it once per connection and then
 * only binds, and PostgreSQL may keep one plan for it. TypeORM's query passes no name, so this
 * goes to the driver's client of the runner (or of a connection of the pool, released after).
 * Fails with the driver's error (code, constraint), not TypeORM's QueryFailedError.
 */
export async function runPrepared<T = Record<string, unknown>>(
  db: DataSource | QueryRunner,
  text: string,
  values: unknown[],
): Promise<T[]> {
  let name = names.get(text);
  if (!name) names.set(text, (name = `rm${names.size}`));
  const runner = 'createQueryRunner' in db ? undefined : db;
  const own = runner ? undefined : (db as DataSource).createQueryRunner();
  try {
    const client = (await (runner ?? own)!.connect()) as {
      query: (config: { name: string; text: string; values: unknown[] }) => Promise<{ rows: T[] }>;
    };
    return (await client.query({ name, text, values })).rows;
  } finally {
    await own?.release();
  }
}
