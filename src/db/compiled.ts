import type { Compilable, CompiledQuery, Kysely, QueryResult, Transaction } from 'kysely';
import { type Dialect, dialectOf } from './dialect.js';
import { readAtOnce } from './read-at-once.js';

/**
 * A hot-path query built and compiled once per database, then run with new values: Kysely's
 * builder and compiler cost more than executing a prepared statement, so paying them on every
 * request is what keeps a route far from the database's own speed. The query is built with named
 * placeholders; each placeholder is a marker value that cannot occur in input (it holds a NUL, which
 * validation refuses everywhere), found again among the compiled parameters by position.
 *
 * Both drivers then reuse their prepared statement for the SQL text (see `connect.ts`).
 */
// biome-ignore lint/suspicious/noExplicitAny: any database or transaction
type AnyDb = Kysely<any> | Transaction<any>;

const MARK = '\u0000param:';

export interface PreparedQuery<Params extends object, Row> {
  execute(db: AnyDb, params: Params): Promise<QueryResult<Row>>;
  /** The statement with these values, for a caller that runs it as part of a larger one. */
  compile(db: AnyDb, params: Params): CompiledQuery<Row>;
}

export function prepareQuery<Params extends object, Row>(
  build: (db: AnyDb, param: <K extends keyof Params & string>(name: K) => Params[K]) => Compilable<Row>,
): PreparedQuery<Params, Row> {
  // One compiled form per dialect: SQLite and PostgreSQL write different SQL.
  const compiledBy = new Map<Dialect, { query: CompiledQuery<Row>; slots: (string | null)[] }>();
  const param = <K extends string>(name: K) => `${MARK}${name}` as never;
  const compiledFor = (db: AnyDb) => {
    const dialect = dialectOf(db);
    let compiled = compiledBy.get(dialect);
    if (!compiled) {
      const query = build(db, param).compile();
      const slots = query.parameters.map((value) =>
        typeof value === 'string' && value.startsWith(MARK) ? value.slice(MARK.length) : null,
      );
      compiled = { query, slots };
      compiledBy.set(dialect, compiled);
    }
    return compiled;
  };
  const compile = (db: AnyDb, params: Params): CompiledQuery<Row> => {
    const { query, slots } = compiledFor(db);
    const parameters = slots.map((slot, index) => (slot === null ? query.parameters[index] : params[slot as keyof Params]));
    return { ...query, parameters };
  };
  return {
    execute: (db, params) => {
      const query = compile(db, params);
      return readAtOnce(db, query) ?? db.executeQuery<Row>(query);
    },
    compile,
  };
}

/**
 * `prepareQuery` for a query whose shape follows its input (a filter given or not, a cursor or a
 * page number): one compiled statement per shape. `shapeOf` names the shape of some values; `build`
 * gets those values to choose its shape, and must put every value in through `param`, never into
 * the SQL, so that the statement compiled for a shape serves every value of that shape.
 */
export function prepareQueryByShape<Params extends object, Row>(
  shapeOf: (params: Params) => string,
  build: (db: AnyDb, param: <K extends keyof Params & string>(name: K) => Params[K], shape: Params) => Compilable<Row>,
): Pick<PreparedQuery<Params, Row>, 'execute'> {
  const byShape = new ShapeCache<PreparedQuery<Params, Row>>();
  return {
    execute: (db, params) => {
      const prepared = byShape.get(shapeOf(params), () =>
        prepareQuery<Params, Row>((built, param) => build(built, param, params)),
      );
      return prepared.execute(db, params);
    },
  };
}

/** Puts a value of the input in as a bound parameter named `name`; see `prepareQueryOfInput`. */
export type Slot = <T>(name: string, value: T) => T;

/**
 * `prepareQueryByShape` for a query built from a structured input, such as filters holding lists
 * of any length. `mark(input, slot)` answers a copy of the input in which every value the query
 * binds went through `slot` under a name of its own (`teamIds.0`); `build` builds the query from
 * such a copy. What `mark` leaves as it is (which filters are given, the lengths of lists, values
 * the query writes into its SQL) is the shape: one compiled statement per shape. A value that
 * chooses the query's shape must not go through `slot`, and a bound one must.
 */
export function prepareQueryOfInput<Input, Row>(
  mark: (input: Input, slot: Slot) => Input,
  build: (db: AnyDb, marked: Input) => Compilable<Row>,
): { execute(db: AnyDb, input: Input): Promise<QueryResult<Row>> } {
  const byShape = new ShapeCache<PreparedQuery<Record<string, unknown>, Row>>();
  return {
    execute: (db, input) => {
      const values: Record<string, unknown> = {};
      const shape = JSON.stringify(
        mark(input, (name, value) => {
          values[name] = value;
          return '?' as never;
        }),
      );
      const prepared = byShape.get(shape, () =>
        prepareQuery<Record<string, unknown>, Row>((built, param) =>
          build(
            built,
            mark(input, (name) => param(name) as never),
          ),
        ),
      );
      return prepared.execute(db, values);
    },
  };
}

/**
 * The statements of a query's shapes, the most recently used kept: the shapes a client can ask for
 * (filters times page sizes) are too many to keep them all.
 */
class ShapeCache<Prepared> {
  private readonly entries = new Map<string, Prepared>();

  constructor(private readonly capacity = 256) {}

  get(shape: string, prepare: () => Prepared): Prepared {
    let prepared = this.entries.get(shape);
    if (prepared) {
      // Moved to the end: the first entry is always the least recently used.
      this.entries.delete(shape);
    } else {
      prepared = prepare();
      const oldest = this.entries.size >= this.capacity ? this.entries.keys().next().value : undefined;
      if (oldest !== undefined) {
        this.entries.delete(oldest);
      }
    }
    this.entries.set(shape, prepared);
    return prepared;
  }
}
