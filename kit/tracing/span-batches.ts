/**
 * Ended spans waiting to be exported, as OTLP/JSON text in buffers outside the JavaScript heap
 * (docs/observability.md#cost). Kept as objects for the seconds a batch fills, spans outlived the young
 * generation and the collector copied them, more than serializing them cost; as text written at once, a
 * span's objects die young and the bytes are never moved. A batch closes at `maxSpans` spans or when its
 * buffer is full; `limit` spans in all are held, and the rest are refused.
 */
const BATCH_BYTES = 1 << 20;

export interface Batch {
  /** The spans' texts, joined by commas. */
  spans: Buffer;
  count: number;
}

export class SpanBatches {
  private closed: Batch[] = [];
  private buffer: Buffer | undefined;
  private used = 0;
  private count = 0;
  /** Spans held, in closed batches and the open one. */
  size = 0;

  constructor(
    private readonly maxSpans: number,
    private readonly limit: number,
  ) {}

  /** Adds one span's text (ASCII); false when it is refused: the limit reached, or a span larger than a batch. */
  add(json: string): boolean {
    if (this.size >= this.limit || json.length >= BATCH_BYTES) return false;
    if (this.buffer && this.used + json.length + 1 > BATCH_BYTES) this.close();
    this.buffer ??= Buffer.allocUnsafe(BATCH_BYTES);
    if (this.count > 0) this.buffer[this.used++] = 0x2c; // ','
    this.used += this.buffer.write(json, this.used, 'latin1');
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

  private close(): void {
    if (!this.buffer || this.count === 0) return;
    this.closed.push({ spans: this.buffer.subarray(0, this.used), count: this.count });
    this.buffer = undefined;
    this.used = 0;
    this.count = 0;
  }
}
