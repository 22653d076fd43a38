import { SpanBatches } from '../span-batches.js';

const head = Buffer.from('{"spans":[', 'latin1');
const tail = Buffer.from(']}', 'latin1');
const span = (n: number) => JSON.stringify({ n });
const spansOf = (body: Buffer) => (JSON.parse(body.toString('latin1')) as { spans: { n: number }[] }).spans;

describe('SpanBatches: ended spans held as request bodies', () => {
  test('a batch closes at its size; each body is whole JSON with every span once, in order', () => {
    const batches = new SpanBatches(3, 100, head, tail);
    for (let n = 1; n <= 7; n++) expect(batches.add(span(n))).toBe(true);
    expect(batches.full).toBe(true);
    expect(batches.size).toBe(7);
    const bodies = [batches.take(), batches.take(), batches.take()];
    expect(bodies.map(b => b && spansOf(b.body).map(s => s.n))).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(bodies.map(b => b?.count)).toEqual([3, 3, 1]);
    expect(batches.take()).toBeUndefined();
    expect(batches.size).toBe(0);
  });

  test('past its limit a span is refused, and taking a batch makes room', () => {
    const batches = new SpanBatches(2, 4, head, tail);
    for (let n = 1; n <= 4; n++) expect(batches.add(span(n))).toBe(true);
    expect(batches.add(span(5))).toBe(false);
    batches.take();
    expect(batches.add(span(6))).toBe(true);
    expect(batches.add('x'.repeat(2 << 20))).toBe(false);
  });

  test('a released buffer carries the next batch; one not released is not written again', () => {
    const batches = new SpanBatches(1, 10, head, tail);
    batches.add(span(1));
    const first = batches.take();
    first?.release();
    batches.add(span(2));
    const second = batches.take();
    expect(second?.body.buffer).toBe(first?.body.buffer);
    batches.add(span(3));
    const third = batches.take();
    expect(third?.body.buffer).not.toBe(second?.body.buffer);
    expect(spansOf(second?.body as Buffer)).toEqual([{ n: 2 }]);
    expect(spansOf(third?.body as Buffer)).toEqual([{ n: 3 }]);
  });
});
