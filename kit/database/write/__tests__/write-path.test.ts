import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from '../../../../test/support/database.js';
import { ResourceNotFound } from '../../../errors.js';
import type { TenantScope } from '../../tenant-scope.js';
import { loadForWrite } from '../load-for-write.js';
import { type OutboxEvent, writeFrame } from '../write-frame.js';

/** A tenant's row as the write path changes it. */
@Entity({ tableName: 'notes', schema: 'public' })
class Note {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid', nullable: true }) customerId: string | null = null;
  @Property({ type: 'integer' }) count = 0;
}

/** The outbox of this test "subgraph". */
@Entity({ tableName: 'note_events', schema: 'public' })
class NoteEvent {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) type!: string;
  @Property({ type: 'json' }) payload!: Record<string, unknown>;
}

const ORG_A = '2b1c1f0e-6a52-4d77-9a4e-3f8f2f0d9b11';
const ORG_B = '7d0c4c55-37f8-4a4e-9b53-0a2f7e1c3d20';
const CUSTOMER = 'a1c7a1f2-9c3e-4d1b-8f55-2c6b0e4d7a90';
const scopeOf = (...organizationIds: string[]): TenantScope => ({ organizationIds, customerId: null });

let database: { url: string; drop: () => Promise<void> };
let orm: MikroORM;
const statements: string[] = [];
const runWrite = writeFrame((em, events: readonly OutboxEvent[]) => {
  for (const e of events) em.create(NoteEvent, { organizationId: e.organizationId, type: e.type, payload: e.payload });
});

beforeAll(async () => {
  database = await createTestDatabase('write_path');
  orm = await MikroORM.init({
    clientUrl: database.url,
    entities: [Note, NoteEvent],
    metadataProvider: ReflectMetadataProvider,
    allowGlobalContext: false,
    debug: ['query'],
    logger: message => statements.push(message),
  });
  await orm.schema.create();
});
afterAll(async () => {
  await orm?.close();
  await database?.drop();
});

async function note(organizationId: string, customerId: string | null = null): Promise<Note> {
  const em = orm.em.fork();
  const row = em.create(Note, { organizationId, customerId, count: 0 });
  await em.flush();
  return row;
}

async function countOf(id: string): Promise<{ count: number; events: number }> {
  const em = orm.em.fork();
  const row = await em.findOneOrFail(Note, { id });
  const events = await em.count(NoteEvent, { payload: { id } });
  return { count: row.count, events };
}

/** Adds one to the note's count and records `note.updated` with the new count. */
const increment = (id: string, scope: TenantScope | null, pause = 0) =>
  runWrite(orm.em, async em => {
    const row = await loadForWrite(em, Note, id, scope, { tenant: { customer: 'customerId' } });
    if (pause) await new Promise(r => setTimeout(r, pause));
    row.count += 1;
    return {
      result: row.count,
      events: [{ organizationId: row.organizationId, type: 'note.updated', payload: { id, count: row.count } }],
    };
  });

describe('the write path', () => {
  it('loads the row and its tenant in ONE statement, locking it', async () => {
    const row = await note(ORG_A);
    statements.length = 0;
    await expect(increment(row.id, scopeOf(ORG_A))).resolves.toBe(1);
    const selects = statements.filter(s => /select/i.test(s) && /notes/.test(s));
    expect(selects).toHaveLength(1);
    expect(selects[0]).toMatch(/for update/i);
    expect(selects[0]).toMatch(/"id" = \? and "n0"."organization_id" = \?/);
    expect(await countOf(row.id)).toEqual({ count: 1, events: 1 });
  });

  it('answers 404 for another tenant’s id, as for a missing one, and changes nothing', async () => {
    const row = await note(ORG_B);
    await expect(increment(row.id, scopeOf(ORG_A))).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(increment(randomUUID(), scopeOf(ORG_A))).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(increment(row.id, null)).rejects.toBeInstanceOf(ResourceNotFound);
    expect(await countOf(row.id)).toEqual({ count: 0, events: 0 });
    await expect(increment(row.id, scopeOf(ORG_A, ORG_B))).resolves.toBe(1);
  });

  it('narrows a customer to its own rows', async () => {
    const own = await note(ORG_A, CUSTOMER);
    const other = await note(ORG_A, randomUUID());
    const customer: TenantScope = { organizationIds: [ORG_A], customerId: CUSTOMER };
    await expect(increment(other.id, customer)).rejects.toBeInstanceOf(ResourceNotFound);
    await expect(increment(own.id, customer)).resolves.toBe(1);
    const withoutCustomerColumn = runWrite(orm.em, async em => ({
      result: await loadForWrite(em, Note, own.id, customer),
    }));
    await expect(withoutCustomerColumn).rejects.toBeInstanceOf(ResourceNotFound);
  });

  it('serialises concurrent writers of one row on its lock (no lost update)', async () => {
    const row = await note(ORG_A);
    const results = await Promise.all(Array.from({ length: 5 }, () => increment(row.id, scopeOf(ORG_A), 30)));
    expect([...results].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(await countOf(row.id)).toEqual({ count: 5, events: 5 });
  });

  it('rolls back the row and its events when the change fails after recording them', async () => {
    const row = await note(ORG_A);
    const failing = runWrite(orm.em, async em => {
      const loaded = await loadForWrite(em, Note, row.id, scopeOf(ORG_A));
      loaded.count = 99;
      return {
        result: loaded,
        events: async () => {
          throw new Error('payload could not be built');
        },
      };
    });
    await expect(failing).rejects.toThrow('payload could not be built');
    expect(await countOf(row.id)).toEqual({ count: 0, events: 0 });

    const failingChange = runWrite(orm.em, async em => {
      const loaded = await loadForWrite(em, Note, row.id, scopeOf(ORG_A));
      loaded.count = 99;
      em.create(NoteEvent, { organizationId: ORG_A, type: 'note.updated', payload: { id: row.id } });
      await em.flush();
      throw new Error('refused');
    });
    await expect(failingChange).rejects.toThrow('refused');
    expect(await countOf(row.id)).toEqual({ count: 0, events: 0 });
  });

  it('builds events after the change is flushed (a payload read from the database sees it)', async () => {
    const row = await note(ORG_A);
    await runWrite(orm.em, async em => {
      const loaded = await loadForWrite(em, Note, row.id, scopeOf(ORG_A));
      loaded.count = 7;
      return {
        result: null,
        events: async tx => {
          const [read] = await tx
            .getConnection()
            .execute('select count from public.notes where id = ?', [row.id], 'all', tx.getTransactionContext());
          return [{ organizationId: ORG_A, type: 'note.updated', payload: { id: row.id, count: read.count } }];
        },
      };
    });
    const em = orm.em.fork();
    const [event] = await em.find(NoteEvent, { payload: { id: row.id } });
    expect(event.payload).toEqual({ id: row.id, count: 7 });
  });
});
