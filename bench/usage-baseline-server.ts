// The ingest's baseline for `npm run bench` target u (bench/usage.ts): a bare node:http server taking
// POST /v1/events/ingest and inserting the batch into the same table with ONE multi-row INSERT of the same rows
// (`json_to_recordset`), on a pg pool: no auth, no validation beyond JSON, no dedupe table, no event types. What
// any hand-written ingest would at least do.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.BASELINE_DATABASE_URL,
  max: Number(process.env.BASELINE_POOL_MAX ?? 10),
});
const organizationId = process.env.BASELINE_ORGANIZATION_ID!;
const INSERT = `insert into billing.usage_events (id, organization_id, name, source, timestamp, ingested_at,
  external_customer_id, metadata)
  select x.id, $2, x.name, 'user', coalesce(x.timestamp, now()), now(), x.external_customer_id, coalesce(x.metadata, '{}')
  from json_to_recordset($1::json) as x(id uuid, name text, timestamp timestamptz, external_customer_id text, metadata jsonb)`;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', c => chunks.push(c));
  req.on('end', async () => {
    try {
      const { events } = JSON.parse(Buffer.concat(chunks).toString()) as { events: Record<string, unknown>[] };
      const rows = events.map(e => ({ ...e, id: randomUUID() }));
      const result = await pool.query({ name: 'ingest', text: INSERT, values: [JSON.stringify(rows), organizationId] });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ inserted: result.rowCount, duplicates: 0 }));
    } catch (error) {
      res.writeHead(500);
      res.end(String(error));
    }
  });
});
server.listen(Number(process.env.BASELINE_PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
