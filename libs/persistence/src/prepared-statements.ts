import { Client, type ClientConfig, type QueryConfig } from 'pg';

/**
 * Named prepared statements for the statements a service sends over and over.
 *
 * TypeORM sends every parameterised statement unnamed, so PostgreSQL parses, analyses and plans it
 * on every execution: about a third of the database's CPU under a burst of swaps. A statement text
 * seen `REPEATS_BEFORE_NAMING` times gets a name; node-postgres then sends its Parse once per
 * connection and afterwards only Bind and Execute, and PostgreSQL reuses the parsed statement (and,
 * after five executions, a generic plan when it is as good). Texts are named up to
 * `MAX_NAMED_STATEMENTS` per process, which bounds the prepared statements each connection keeps
 * on the server; beyond that, statements go unnamed as before.
 *
 * Statements without parameters (START TRANSACTION, COMMIT, DDL, several statements in one
 * message) are never named. A prepared statement belongs to its connection: this works with
 * direct connections and session pooling, not with a transaction-pooling proxy (PgBouncer in
 * transaction mode before 1.21). When a migration changes the columns a named statement returns,
 * PostgreSQL refuses it ("cached plan must not change result type"): the text is named afresh, so
 * the next executions prepare the new shape, and the refused one is sent again unnamed when it ran
 * on its own; inside a transaction it fails (the transaction is aborted) and its caller retries.
 */
export class PreparingClient extends Client {
  /**
   * `connectTimeoutMillis` (serviceDataSourceOptions) bounds this client's connect, apart from the
   * pool's `connectionTimeoutMillis`, which pg-pool also applies to the wait for a free client.
   */
  constructor(config?: ClientConfig & { connectTimeoutMillis?: number }) {
    super(
      config?.connectTimeoutMillis === undefined
        ? config
        : { ...config, connectionTimeoutMillis: config.connectTimeoutMillis },
    );
  }

  // node-postgres's overloads (callback, submittable, promise) make `query` awkward to type:
  // every form goes through unchanged except (text, values), which may get a name.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0 && callback === undefined) {
      const text = config;
      const name = statementNames.nameOf(text);
      if (name !== undefined)
        return (super.query({ name, text, values } satisfies QueryConfig) as Promise<unknown>).catch(
          (error: unknown) => {
            if (!isStalePlan(error)) throw error;
            // A migration changed what the statement returns: prepare it afresh under a new name.
            statementNames.forget(text);
            // Outside a transaction (the status before this statement's end) the refused statement
            // changed nothing: run it again. Inside one, the transaction is aborted: the caller retries.
            if (this.getTransactionStatus() === 'I') return super.query(text, values);
            throw error;
          },
        );
    }
    return super.query(config, values, callback);
  }
}

/** PostgreSQL's refusal to run a prepared statement whose result columns changed since it was prepared. */
function isStalePlan(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '0A000' && /cached plan must not change result type/.test(e.message ?? '');
}

/** Which statement texts have a name: counted per process, the same name on every connection. */
export class StatementNames {
  private readonly seen = new Map<string, number>();
  private readonly names = new Map<string, string>();
  private lastNumber = 0;

  constructor(
    private readonly repeatsBeforeNaming: number,
    private readonly maxNamed: number,
    /** Texts counted but not yet named, at most; beyond it the counts start over. */
    private readonly maxCounted = 2000,
  ) {}

  /** The name of `text`, once it has been asked for `repeatsBeforeNaming` times and while names are left. */
  nameOf(text: string): string | undefined {
    const named = this.names.get(text);
    if (named !== undefined || this.names.size >= this.maxNamed) return named;
    const count = (this.seen.get(text) ?? 0) + 1;
    if (count < this.repeatsBeforeNaming) {
      if (this.seen.size >= this.maxCounted) this.seen.clear();
      this.seen.set(text, count);
      return undefined;
    }
    this.seen.delete(text);
    const name = `swapgw_${++this.lastNumber}`;
    this.names.set(text, name);
    return name;
  }

  /** Drops the name of `text`: it is counted again and, named again, gets a new name. */
  forget(text: string): void {
    this.names.delete(text);
  }

  get namedCount(): number {
    return this.names.size;
  }
}

const REPEATS_BEFORE_NAMING = 3;
const MAX_NAMED_STATEMENTS = 200;

export const statementNames = new StatementNames(REPEATS_BEFORE_NAMING, MAX_NAMED_STATEMENTS);
