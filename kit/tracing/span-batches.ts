/**
 * Ended spans waiting to be exported, as the bodies of the requests that will carry them: OTLP/JSON text
 * in buffers outside the JavaScript heap (docs/observability.md#cost). A span's objects die young once its
 * text is written, and the bytes are never moved by the collector. The buffers are kept and used again:
 * allocating a new megabyte per batch made V8 count that much more external memory and run three times as
 * many full collections. A batch closes at `maxSpans` spans or when its buffer is full; `limit` spans in
 * all are held, and the rest are refused.
 */
const BATCH_BYTES = 1 << 20;

export interface Batch {
  /** A whole request body: `head`, the spans' texts joined by commas, `tail`. */
  body: Buffer;
  count: number;
  /** Gives the buffer back, once the body is sent: not after a failed send, whose write may still hold it. */
  release(): void;
}

export class SpanBatches {
  private readonly closed: Batch[] = [];
  private readonly free: Buffer[] = [];
  private buffer: Buffer | undefined;
  private used = 0;
  private count = 0;
  /** Spans held, in closed batches and the open one. */
  size = 0;

  constructor(
    private readonly maxSpans: number,
    private readonly limit: number,
    private readonly head: Buffer,
    private readonly tail: Buffer,
  ) {}

  /** Adds one span's text (ASCII); false when it is refused: the limit reached, or a span larger than a batch. */
  add(json: string): boolean {
    const room = BATCH_BYTES - this.head.length - this.tail.length - 1;
    if (this.size >= this.limit || json.length > room) return false;
    if (this.buffer && this.used + json.length + 1 + this.tail.length > BATCH_BYTES) this.close();
    if (!this.buffer) this.open();
    const buffer = this.buffer as Buffer;
    if (this.count > 0) buffer[this.used++] = 0x2c; // ','
    this.used += buffer.write(json, this.used, 'latin1');
    this.count += 1;
    this.size += 1;
    if (this.count >= this.maxSpans) this.close();
    return true;
  }

  /** Whether a closed batch waits: one to send now, not at the next tick of the schedule. */
  get full(): boolean {
    return this.closed.length > 0;
  }

  /** The oldest batch, closing the open one when none is closed; undefined when nothing is held. */
  take(): Batch | undefined {
    if (this.closed.length === 0) this.close();
    const batch = this.closed.shift();
    if (batch) this.size -= batch.count;
    return batch;
  }

  private open(): void {
    this.buffer = this.free.pop() ?? Buffer.allocUnsafe(BATCH_BYTES);
    this.used = this.head.copy(this.buffer, 0);
  }

  private close(): void {
    const buffer = this.buffer;
    if (!buffer || this.count === 0) return;
    const end = this.used + this.tail.copy(buffer, this.used);
    this.closed.push({
      body: buffer.subarray(0, end),
      count: this.count,
      release: () => {
        if (this.free.length < 2) this.free.push(buffer);
      },
    });
    this.buffer = undefined;
    this.used = 0;
    this.count = 0;
  }
}
