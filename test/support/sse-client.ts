import type { Json } from './http';

/** A Server-Sent Events client over fetch: the events and comment lines received, as they come. */
export class SseClient {
  readonly events: { id: string; event: string; data: Json; at: number }[] = [];
  readonly comments: string[] = [];
  status = 0;
  ended = false;
  private readonly abort = new AbortController();
  private buffer = '';

  private reader?: ReadableStreamDefaultReader<Uint8Array>;

  /** `paused`: nothing is read until `resume()` (the server meets a client that does not read). */
  static async open(url: string, headers: Record<string, string>, paused = false): Promise<SseClient> {
    const client = new SseClient();
    const res = await fetch(url, { headers, signal: client.abort.signal });
    client.status = res.status;
    client.reader = res.body?.getReader();
    if (!paused) client.resume();
    return client;
  }

  resume(): void {
    if (this.reader) void this.pump(this.reader);
  }

  private async pump(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = this.buffer.indexOf('\n\n')) >= 0) {
          const block = this.buffer.slice(0, end);
          this.buffer = this.buffer.slice(end + 2);
          if (block.startsWith(':')) this.comments.push(block);
          else {
            const fields = Object.fromEntries(
              block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
            );
            this.events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data), at: Date.now() });
          }
        }
      }
    } catch {
      /* aborted */
    }
    this.ended = true;
  }

  async until(check: () => boolean, ms = 5000): Promise<void> {
    const started = Date.now();
    while (!check()) {
      if (Date.now() - started > ms) throw new Error('timed out waiting on the stream');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  close(): void {
    this.abort.abort();
  }
}
