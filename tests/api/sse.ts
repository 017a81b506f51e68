/** A small Server-Sent Events reader for tests: collects every event of a response body. */

export interface SseEvent {
  readonly id: string | null;
  readonly event: string;
  readonly data: any;
}

export const readEvents = (response: Response) => {
  if (!response.body) throw new Error("no body");
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = "";
  let ended = false;
  let waiters: Array<() => void> = [];
  const notify = () => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  const parse = (block: string) => {
    let id: string | null = null;
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":") || line === "") continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "id") id = value;
      else if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (data.length === 0) return;
    const text = data.join("\n");
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // plain text data
    }
    events.push({ id, event, data: parsed });
  };
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
        let i: number;
        while ((i = buffer.indexOf("\n\n")) >= 0) {
          parse(buffer.slice(0, i));
          buffer = buffer.slice(i + 2);
        }
        notify();
      }
    } catch {
      // cancelled
    } finally {
      ended = true;
      notify();
    }
  })();

  let consumed = 0;
  const waitChange = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });

  return {
    events,
    get ended() {
      return ended;
    },
    /** The next event (after those already taken) matching `match`, within `ms`. */
    take: async (match: (e: SseEvent) => boolean = () => true, ms = 10_000): Promise<SseEvent> => {
      const until = Date.now() + ms;
      for (;;) {
        for (let i = consumed; i < events.length; i++) {
          if (match(events[i]!)) {
            consumed = i + 1;
            return events[i]!;
          }
        }
        if (ended) throw new Error(`stream ended; events: ${JSON.stringify(events.map((e) => e.event))}`);
        if (Date.now() > until) throw new Error(`no matching event within ${ms} ms; events: ${JSON.stringify(events.map((e) => [e.id, e.event]))}`);
        await waitChange(Math.max(1, until - Date.now()));
      }
    },
    /** Resolves when the server ends the stream (or rejects after `ms`). */
    waitEnd: async (ms = 10_000) => {
      const until = Date.now() + ms;
      while (!ended) {
        if (Date.now() > until) throw new Error("stream did not end");
        await waitChange(Math.max(1, until - Date.now()));
      }
    },
    close: () => reader.cancel().catch(() => undefined),
  };
};
export type EventReader = ReturnType<typeof readEvents>;
