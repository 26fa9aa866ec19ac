import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatReply {
  status?: number;
  /** The assistant message content (status 200), or an error body. */
  content?: string;
}

export interface FakeChatServer {
  baseUrl: string;
  /** Request bodies received, in order. */
  requests: Array<{
    model: string;
    messages: Array<{ role: string; content: string }>;
    response_format?: unknown;
    authorization?: string;
  }>;
  /** Replies served in order; the last one repeats. */
  replies: ChatReply[];
  /** While set, requests are recorded but answered only once it resolves (to observe work in flight). */
  hold: Promise<void> | null;
  /** Resolves once `count` requests have arrived (answered or held). */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A local HTTP server speaking just enough of the chat-completions API for the `openai` client; no network. */
export async function startFakeChatServer(replies: ChatReply[]): Promise<FakeChatServer> {
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const state: FakeChatServer = {
    baseUrl: '',
    requests: [],
    replies,
    hold: null,
    received: (count) =>
      state.requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: async () => undefined,
  };
  let served = 0;
  const server: Server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as FakeChatServer['requests'][number];
    state.requests.push({
      ...body,
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    });
    for (const waiter of waiters.filter((entry) => state.requests.length >= entry.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    if (state.hold) await state.hold;
    const reply = state.replies[Math.min(served++, state.replies.length - 1)] ?? { status: 500 };
    const status = reply.status ?? 200;
    response.writeHead(status, { 'content-type': 'application/json' });
    if (status !== 200) {
      response.end(
        JSON.stringify({ error: { message: reply.content ?? `fake error ${status}`, type: 'server_error' } }),
      );
      return;
    }
    response.end(
      JSON.stringify({
        id: `chatcmpl-${served}`,
        object: 'chat.completion',
        created: 0,
        model: body.model,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply.content ?? '' } }],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return state;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
