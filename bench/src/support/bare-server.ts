// The baseline of the gateway-overhead scenario: a bare Fastify handler answering GET
// /api/v1/chains with the exact bytes the gateway answered, in its own process like the gateway.
import fs from 'node:fs';
import Fastify from 'fastify';

async function main(): Promise<void> {
  const body = fs.readFileSync(process.env.BARE_BODY_FILE ?? '', 'utf8');
  const port = Number(process.env.PORT);
  const app = Fastify({ logger: false });
  app.get('/api/v1/chains', async (_request, reply) =>
    reply.header('content-type', 'application/json; charset=utf-8').send(body),
  );
  await app.listen({ port, host: '127.0.0.1' });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
