// Named prepared statements for hot read queries: PostgreSQL parses and plans a statement once per
// session and then reuses the plan, instead of planning every call. Drizzle sends every query
// unnamed (parse, plan, run), and on PGlite the planning is the larger part of a short query: it
// asks the file system for the size of every table and index it considers (docs/server.md,
// Performance). Both databases are reached through node-postgres (PGlite on its own thread).
//
// A statement is keyed by its SQL text. Drizzle turns every value into a parameter, so the number
// of statements is bounded by the number of query shapes, not by the values.
import { fillPlaceholders, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db } from './client.ts';

const dialect = new PgDialect();

/**
 * A fragment without parameters (table and column names, fixed SQL) compiled to text once, so a
 * query built from it per call does not walk it again.
 */
export function precompiled(fragment: SQL): SQL {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  if (params.length > 0) throw new Error('precompiled fragments must not have parameters');
  return sql.raw(text);
}

/** A query compiled to its text once, with placeholders for the values it takes per call. */
export interface CompiledQuery {
  text: string;
  /** Drizzle's parameters: values, or placeholders that `preparedCompiled` fills per call. */
  params: unknown[];
}

/** Compiles `query` (which may use `sql.placeholder`) once; run it with `preparedCompiled`. */
export function compile(query: SQL): CompiledQuery {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { text, params };
}

/** One result row: every column as PostgreSQL's text output (null for SQL NULL). */
export type TextRow = (string | null)[];

type RunPrepared = (text: string, params: unknown[]) => Promise<TextRow[]>;

const runners = new WeakMap<object, RunPrepared>();

/**
 * Runs `query` as a named prepared statement of this database (created on first use, then reused)
 * and answers its rows as text. Only for the top-level database handle, not inside a transaction.
 */
export function preparedRows(db: Db, query: SQL): Promise<TextRow[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return runner(db)(text, params);
}

/**
 * Runs a query compiled once by `compile` with this call's values for its placeholders: the SQL is
 * not built again per call (Drizzle's building and the statement text's hashing cost about 20 µs).
 */
export function preparedCompiled(
  db: Db,
  query: CompiledQuery,
  values: Record<string, unknown>,
): Promise<TextRow[]> {
  return runner(db)(query.text, fillPlaceholders(query.params, values));
}

function runner(db: Db): RunPrepared {
  const client = (db as Db & { $client?: unknown }).$client;
  if (!(client instanceof pg.Pool)) {
    throw new Error('preparedRows needs the database handle from openDatabase');
  }
  let run = runners.get(client);
  if (!run) {
    run = poolRunner(client);
    runners.set(client, run);
  }
  return run;
}

/**
 * node-postgres prepares a named query once per pooled connection and caches it there. The names
 * carry the connection's number: PGlite's connections share one session, where two connections
 * preparing the same name would collide.
 */
function poolRunner(pool: pg.Pool): RunPrepared {
  const numbers = new Map<string, number>();
  const connections = new WeakMap<pg.PoolClient, number>();
  const asText = { getTypeParser: () => (value: string) => value };
  return async (text, params) => {
    let statement = numbers.get(text);
    if (statement === undefined) {
      statement = numbers.size + 1;
      numbers.set(text, statement);
    }
    const client = await pool.connect();
    try {
      let connection = connections.get(client);
      if (connection === undefined) {
        connection = nextConnection++;
        connections.set(client, connection);
      }
      const result = await client.query<TextRow>({
        name: `lc_prepared_${connection}_${statement}`,
        text,
        values: params,
        rowMode: 'array',
        types: asText,
      });
      return result.rows;
    } finally {
      client.release();
    }
  };
}

let nextConnection = 1;
