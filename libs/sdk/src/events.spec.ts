import { GatewayApiError } from './errors';
import { swapEvents, SwapStreamEvent } from './events';

// The SSE reader against a fake fetch that serves text/event-stream bodies chunk by chunk, as the
// gateway writes them (named events with ids, keep-alive comments, retry), and drops connections.
describe('swapEvents', () => {
  const encoder = new TextEncoder();
  const frame = (id: number, event: string, data: Record<string, unknown>) =>
    `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify({ swapId: 's1', step: null, atMs: 1, ...data })}\n\n`;

  /** A stream of `chunks`; ends normally, or errors after them when `drop` (a connection reset). */
  const stream = (chunks: string[], drop = false) => {
    const left = [...chunks];
    return new Response(
      // One chunk per read, then the end (or the reset: an error drops what is still queued).
      new ReadableStream<Uint8Array>({
        pull(controller) {
          const chunk = left.shift();
          if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
          else if (drop) controller.error(new TypeError('terminated'));
          else controller.close();
        },
      }),
      { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } },
    );
  };

  function fakeFetch(answers: Array<() => Response>) {
    const requests: Array<{ url: string; lastEventId: string | undefined; authorization: string }> = [];
    const fetch = (async (url: string, init: { headers: Record<string, string> }) => {
      requests.push({
        url,
        lastEventId: init.headers['last-event-id'],
        authorization: init.headers.authorization,
      });
      const answer = answers.shift();
      if (!answer) throw new Error('no more answers');
      return answer();
    }) as unknown as typeof globalThis.fetch;
    return { fetch, requests };
  }

  const collect = async (iterable: AsyncIterable<SwapStreamEvent>) => {
    const events: SwapStreamEvent[] = [];
    for await (const event of iterable) events.push(event);
    return events;
  };

  it('reads events split across chunks, skips comments, resumes with Last-Event-ID after a drop, ends at the terminal event', async () => {
    const first = frame(11, 'swap.created', { status: 'planning' });
    const second = frame(14, 'swap.signing-ready', { status: 'awaiting_signature', signing: { step: 1 } });
    const { fetch, requests } = fakeFetch([
      // retry, a keep-alive, the first event in two pieces, the second cut by a dropped connection.
      () => stream(['retry: 5\n\n: keep-alive\n\n', first.slice(0, 9), first.slice(9), second], true),
      () => stream([': keep-alive\n\n']), // ends without an event (an instance shutting down)
      () =>
        stream([
          frame(20, 'swap.step-submitted', { status: 'submitted' }),
          frame(31, 'swap.completed', { status: 'completed' }),
        ]),
    ]);
    const events = await collect(
      swapEvents({
        baseUrl: 'http://gw/api/v1/',
        apiKey: 'sgw_k',
        swapId: 's1',
        fetch,
        reconnectDelayMs: 60_000,
      }),
    );
    expect(events.map((e) => [e.id, e.event, e.data.status])).toEqual([
      ['11', 'swap.created', 'planning'],
      ['14', 'swap.signing-ready', 'awaiting_signature'],
      ['20', 'swap.step-submitted', 'submitted'],
      ['31', 'swap.completed', 'completed'],
    ]);
    expect(events[1].data.signing).toEqual({ step: 1 });
    // The server's retry (5 ms) replaced the 60 s default; each reconnection sent the last id it had.
    expect(requests).toEqual([
      { url: 'http://gw/api/v1/swap/s1/events', lastEventId: undefined, authorization: 'Bearer sgw_k' },
      { url: 'http://gw/api/v1/swap/s1/events', lastEventId: '14', authorization: 'Bearer sgw_k' },
      { url: 'http://gw/api/v1/swap/s1/events', lastEventId: '14', authorization: 'Bearer sgw_k' },
    ]);
  });

  it('starts after lastEventId when given, and throws the ApiError of an answer that is not a stream', async () => {
    const { fetch, requests } = fakeFetch([
      () =>
        new Response(
          JSON.stringify({ error: { code: 'SWAP_NOT_FOUND', message: 'no such swap' }, meta: {} }),
          {
            status: 404,
            headers: { 'content-type': 'application/json' },
          },
        ),
    ]);
    const error = await collect(
      swapEvents({ baseUrl: 'http://gw/api/v1', apiKey: 'k', swapId: 'x', fetch, lastEventId: '7' }),
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GatewayApiError);
    expect(error).toMatchObject({ status: 404, code: 'SWAP_NOT_FOUND' });
    expect(requests[0].lastEventId).toBe('7');
  });

  it('gives up after maxReconnects connections in a row without an event', async () => {
    const { fetch, requests } = fakeFetch(
      Array.from({ length: 5 }, () => () => stream([': keep-alive\n\n'])),
    );
    await expect(
      collect(
        swapEvents({
          baseUrl: 'http://gw',
          apiKey: 'k',
          swapId: 's1',
          fetch,
          maxReconnects: 2,
          reconnectDelayMs: 1,
        }),
      ),
    ).rejects.toThrow('kept ending');
    expect(requests).toHaveLength(3);
  });
});
