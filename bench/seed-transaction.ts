import pg from 'pg';

/**
 * A seed's one transaction on a client of its own (bench/seed-*.ts): committed and the tables analysed, or rolled
 * back; answers the time it took.
 */
export async function seedTransaction(
  databaseUrl: string,
  analyze: readonly string[],
  work: (client: pg.Client) => Promise<void>,
): Promise<{ ms: number }> {
  const started = Date.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    await work(client);
    await client.query('commit');
    for (const table of analyze) await client.query(`analyze ${table}`);
    return { ms: Date.now() - started };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
