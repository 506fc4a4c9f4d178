// The raw appends the event-store benches compare the store with (event-store-bench.mjs, event-store-cpu.mjs):
// the same rows appendToStream writes, sent with `pg` as directly as PostgreSQL allows.
import pg from 'pg';

export const SUBJECT = 'letters.bench.item-added.v1';
export const title = (i) => `Item ${i}: a title of a plausible length for a letter`;

/** The same rows as appendToStream writes, in one statement: the floor of what an append can cost. */
export const RAW_APPEND = `
  with cur as (select coalesce(max(version), 0) as v from events where stream_id = $1),
       ins as (
         insert into events (event_id, stream_id, stream_type, version, type, data, metadata, occurred_at)
         select $2::uuid, $1, 'item', cur.v + 1, 'ItemAdded', $3::jsonb, '{}'::jsonb, now() from cur where cur.v = 0
         returning event_id, version),
       out as (insert into outbox (event_id, subject, payload) select event_id, '${SUBJECT}', $4::jsonb from ins),
       rm as (insert into bench_items (id, title, version) select $1, $5, version from ins)
  select version from ins`;
export const RAW_APPEND_NO_READ_MODEL = RAW_APPEND.replace(/,\s*rm as \(.*?from ins\)/s, '');
export const ITEMS_INSERT = `insert into bench_items (id, title, version)
  select x.id, x.title, x.version from jsonb_to_recordset($1::jsonb) as x(id text, title text, version int)
  on conflict (id) do update set title = excluded.title, version = excluded.version where bench_items.version < excluded.version`;
/** `$n` replaced by literals (n < 10): what a multi-statement query, which takes no parameters, sends. */
export const inline = (sql, params) => sql.replace(/\$(\d)/g, (_, n) => pg.escapeLiteral(String(params[Number(n) - 1])));
