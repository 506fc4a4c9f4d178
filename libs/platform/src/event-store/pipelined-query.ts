import pg from 'pg';

/** A statement with `$n` placeholders and its parameters as the wire sends them (text or null). */
export interface BoundStatement {
  text: string;
  values: (string | null)[];
}

/**
 * `em.execute(sql, params)` as a bound statement, when binding cannot read it differently from
 * MikroORM's inlining: plain values only (null, strings, numbers, booleans), one value per `?`, no
 * `??` identifiers or `\?` escapes. Anything else gives null (the caller then uses em.execute's way).
 */
export function toBoundStatement(sql: string, params: readonly unknown[]): BoundStatement | null {
  const parts = sql.split('?');
  if (parts.length !== params.length + 1 || sql.includes('??') || sql.includes('\\?')) return null;
  const values: (string | null)[] = [];
  for (const p of params) {
    if (p === null) values.push(null);
    else if (typeof p === 'string') values.push(p);
    else if (typeof p === 'number' || typeof p === 'boolean') values.push(String(p));
    else return null;
  }
  const text = parts.reduce((out, part, i) => (i === 0 ? part : `${out}$${i}${part}`), '');
  return { text, values };
}

/**
 * Statement texts get a prepared statement of their own on each connection, parsed once: PostgreSQL
 * then skips parsing and planning them on every append. Past this many distinct texts (a projection
 * that builds its SQL per call), statements are parsed each time, unnamed.
 */
const MAX_NAMED = 256;
const names = new Map<string, string>();
const nameOf = (text: string): string | undefined => {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) names.set(text, (name = `lv_es_${names.size + 1}`));
  return name;
};

interface WireConnection {
  parsedStatements: Record<string, string>;
  stream: { cork?: () => void; uncork?: () => void };
  parse(msg: { text: string; name: string; types: number[] }): void;
  bind(msg: { portal: string; statement: string; values: (string | null)[] }): void;
  describe(msg: { type: 'P'; name: string }): void;
  execute(msg: { portal: string }): void;
  sync(): void;
}

/**
 * Several statements in one round trip of the extended protocol: Parse (once per connection),
 * Bind, Describe and Execute for each, then a single Sync. Outside BEGIN, PostgreSQL runs everything
 * up to the Sync as one implicit transaction: an error skips the rest, and rolls all of it back.
 * Unlike a multi-statement simple query, values are bound (no escaping, no lexing of literals).
 */
// pg's Query collects results and errors; its types declare submit as a property, not a method.
const QueryBase = pg.Query as unknown as new (config: { text: string }, callback: (error: Error | undefined, results: unknown) => void) => object;

class PipelinedQuery extends QueryBase {
  /** Whether this round trip created prepared statements: after an error, which ones exist is unknown. */
  parsed = false;

  constructor(private readonly statements: readonly BoundStatement[], callback: (error: Error | undefined, results: unknown) => void) {
    super({ text: statements.map((s) => s.text).join(';\n') }, callback);
  }

  submit(connection: unknown): Error | null {
    const wire = connection as WireConnection;
    const named = this.statements.map((s) => nameOf(s.text));
    wire.stream.cork?.();
    try {
      // Named statements are parsed first: a failing statement then cannot leave a later one unparsed.
      this.statements.forEach((s, i) => {
        const name = named[i];
        if (name === undefined || wire.parsedStatements[name] === s.text) return;
        wire.parse({ text: s.text, name, types: [] });
        wire.parsedStatements[name] = s.text;
        this.parsed = true;
      });
      this.statements.forEach((s, i) => {
        const name = named[i];
        if (name === undefined) wire.parse({ text: s.text, name: '', types: [] });
        wire.bind({ portal: '', statement: name ?? '', values: s.values });
        wire.describe({ type: 'P', name: '' });
        wire.execute({ portal: '' });
      });
      wire.sync();
    } finally {
      wire.stream.uncork?.();
    }
    return null;
  }
}

/**
 * Runs the statements in one round trip and one implicit transaction, on a connection of `pool`;
 * returns each statement's rows. A connection whose prepared statements are in doubt (an error in a
 * round trip that parsed some) or that failed is closed rather than given back.
 */
export async function queryInOneTransaction<R>(pool: pg.Pool, statements: readonly BoundStatement[]): Promise<R[][]> {
  const client = await pool.connect();
  let query: PipelinedQuery | undefined;
  try {
    const results = await new Promise<unknown>((resolve, reject) => {
      query = new PipelinedQuery(statements, (error, res) => (error ? reject(error) : resolve(res)));
      void client.query(query as unknown as pg.QueryConfig);
    });
    client.release();
    const list = (Array.isArray(results) ? results : [results]) as pg.QueryResult[];
    return list.map((r) => r.rows as R[]);
  } catch (error) {
    // A server error (it has a SQLSTATE) leaves the connection usable, unless it may lack statements.
    const serverError = typeof (error as { code?: unknown }).code === 'string' && (error as { severity?: string }).severity !== 'FATAL';
    client.release(serverError && !query?.parsed ? undefined : (error as Error));
    throw error;
  }
}
