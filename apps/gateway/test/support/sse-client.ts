/** One SSE event as a client reads it. */
export interface SseEvent {
  id: string;
  event: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each spec narrows the data it reads
  data: any;
}

export interface SseStream {
  status: number;
  contentType: string;
  /** The ApiError body when the answer is not a stream. */
  errorBody?: unknown;
  events: SseEvent[];
  comments: string[];
  /** Resolves when the server ended the stream (or it was dropped with drop()). */
  ended: Promise<void>;
  isEnded(): boolean;
  /** Drops the connection as a flaky network would. */
  drop(): Promise<void>;
}

/**
 * A minimal SSE client over fetch, what a browser or Node client does (EventSource cannot send
 * Authorization): GET `url` with the key and, when given, Last-Event-ID; frames are parsed as they
 * arrive into `events` (named ones, data as JSON) and `comments` (`: ...` lines).
 */
export async function openSseStream(
  url: string,
  key: string,
  options: { lastEventId?: string; onFrame?: () => void } = {},
): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(url, {
    headers: {
      authorization: `Bearer ${key}`,
      accept: 'text/event-stream',
      ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
    },
    signal: controller.signal,
  });
  const contentType = res.headers.get('content-type') ?? '';
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let ended = false;
  if (!contentType.startsWith('text/event-stream')) {
    const errorBody: unknown = await res.json();
    return {
      status: res.status,
      contentType,
      errorBody,
      events,
      comments,
      ended: Promise.resolve(),
      isEnded: () => true,
      drop: async () => undefined,
    };
  }
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields: Record<string, string> = {};
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.includes(':'))
              fields[line.slice(0, line.indexOf(':'))] = line.slice(line.indexOf(':') + 1).trimStart();
          }
          if (fields.event)
            events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) });
          options.onFrame?.();
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    } finally {
      ended = true;
    }
  })();
  return {
    status: res.status,
    contentType,
    events,
    comments,
    ended: reading,
    isEnded: () => ended,
    drop: async () => {
      controller.abort();
      await reading;
    },
  };
}
