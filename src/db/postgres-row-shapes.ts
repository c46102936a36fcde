import pg from 'pg';

/**
 * A named prepared statement whose rows are read with the parsers its connection found for it the
 * first time. pg reads every execution's RowDescription afresh: `Result.addFields` looks up a parser
 * per column and builds the row template again, about 10 µs for the ticket read model's 42 columns,
 * as much as all of Switchboard's own code on that read. A prepared statement's columns cannot
 * change while it is prepared (PostgreSQL refuses to run it: "cached plan must not change result
 * type"), and each connection prepares its own, so a connection keeps its statements' shapes.
 *
 * This reaches into pg's `Query` and `Result` (their `_result`, `_parsers`,
 * `_prebuiltEmptyResultObject` and `_accumulateRows`); `rowShapesSupported` checks at start that
 * this pg still has them, and without them every statement goes through pg as it is.
 */

/** A column as pg's RowDescription gives it; the shape is reused only while these stay the same. */
interface FieldDescription {
  name: string;
  dataTypeID: number;
  format?: string;
}

interface ResultInternals {
  fields: FieldDescription[];
  command?: string | null;
  _parsers?: unknown[];
  _prebuiltEmptyResultObject?: object;
  addFields(fields: FieldDescription[]): void;
}

interface QueryInternals {
  name?: string;
  callback?: unknown;
  _result: ResultInternals;
  _accumulateRows: unknown;
  listeners(event: string): unknown[];
}

interface RowDescriptionMessage {
  fields: FieldDescription[];
}

interface RowShape {
  fields: FieldDescription[];
  parsers: unknown[];
  empty: object;
}

/** One connection's shapes, by statement name (names are a connection's own). */
export type RowShapes = Map<string, RowShape>;

export interface NamedStatement {
  name: string;
  text: string;
  values: unknown[];
}

export type QueryCallback = (error: Error | null, result: pg.QueryResult) => void;

const pgHandleRowDescription = (
  pg.Query.prototype as unknown as { handleRowDescription?: (message: RowDescriptionMessage) => void }
).handleRowDescription;

/** Whether this pg keeps a result's parsers and row template where `ShapedQuery` sets them. */
function pgKeepsShapes(): boolean {
  if (typeof pgHandleRowDescription !== 'function') {
    return false;
  }
  const probe = new pg.Query('select 1') as unknown as QueryInternals;
  if (typeof probe._result?.addFields !== 'function') {
    return false;
  }
  probe._result.addFields([{ name: 'probe', dataTypeID: 25, format: 'text' }]);
  return (
    Array.isArray(probe._result._parsers) &&
    typeof probe._result._prebuiltEmptyResultObject === 'object' &&
    'probe' in probe._result._prebuiltEmptyResultObject
  );
}

export const rowShapesSupported = pgKeepsShapes();

function describesSame(shape: RowShape, fields: FieldDescription[]): boolean {
  if (shape.fields.length !== fields.length) {
    return false;
  }
  for (let index = 0; index < fields.length; index++) {
    const known = shape.fields[index] as FieldDescription;
    const field = fields[index] as FieldDescription;
    if (known.name !== field.name || known.dataTypeID !== field.dataTypeID || known.format !== field.format) {
      return false;
    }
  }
  return true;
}

class ShapedQuery extends pg.Query {
  readonly #shapes: RowShapes;

  constructor(statement: NamedStatement, shapes: RowShapes, callback: QueryCallback) {
    // Given as text and values, then named: pg copies a config object by its property descriptors
    // (`cloneQueryConfig`), some 3 µs a statement, and a text it takes as it is.
    super(statement.text, statement.values, callback as never);
    (this as unknown as QueryInternals).name = statement.name;
    this.#shapes = shapes;
  }

  /** pg's own handler, but with the shape the statement had before when its columns are the same. */
  handleRowDescription(message: RowDescriptionMessage): void {
    const query = this as unknown as QueryInternals;
    const result = query._result;
    const name = query.name as string;
    const shape = this.#shapes.get(name);
    // A result already complete is a second statement of a simple query: pg's handler starts the next.
    if (!shape || result.command || !describesSame(shape, message.fields)) {
      pgHandleRowDescription?.call(this, message);
      // Read again: for a second result pg's handler made a new one.
      const described = query._result;
      if (described._parsers && described._prebuiltEmptyResultObject) {
        this.#shapes.set(name, {
          fields: message.fields,
          parsers: described._parsers,
          empty: described._prebuiltEmptyResultObject,
        });
      }
      return;
    }
    result.fields = message.fields;
    result._parsers = shape.parsers;
    result._prebuiltEmptyResultObject = shape.empty;
    query._accumulateRows = query.callback || query.listeners('row').length === 0;
  }
}

/**
 * Runs a named statement on `run` (a client's own `query`) as a `ShapedQuery`: with `callback` as
 * pg's callback, or, without one, answering a promise as pg's `client.query` does.
 */
export function queryWithShapes(
  run: (query: pg.Query) => unknown,
  statement: NamedStatement,
  shapes: RowShapes,
  callback: QueryCallback | undefined,
): unknown {
  if (callback) {
    return run(new ShapedQuery(statement, shapes, callback));
  }
  return new Promise<pg.QueryResult>((resolve, reject) => {
    run(
      new ShapedQuery(statement, shapes, (error, result) => {
        if (error) {
          // As pg does: a stack that leads back to the caller, not to the socket's read.
          Error.captureStackTrace(error);
          reject(error);
        } else {
          resolve(result);
        }
      }),
    );
  });
}
