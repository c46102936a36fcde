import type { Compilable, CompiledQuery, Kysely, QueryResult, Transaction } from 'kysely';
import { type Dialect, dialectOf } from './dialect.js';

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
    execute: (db, params) => db.executeQuery<Row>(compile(db, params)),
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
  const byShape = new Map<string, PreparedQuery<Params, Row>>();
  return {
    execute: (db, params) => {
      const shape = shapeOf(params);
      let prepared = byShape.get(shape);
      if (!prepared) {
        prepared = prepareQuery<Params, Row>((built, param) => build(built, param, params));
        byShape.set(shape, prepared);
      }
      return prepared.execute(db, params);
    },
  };
}
