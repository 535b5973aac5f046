import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from '../app.module';
import { API_PREFIX } from '../bootstrap/create-gateway-app';
import { GatewayConfig } from '../config/gateway.config';
import { buildOpenApiDocument } from '../openapi/openapi-document';

/** The committed document clients generate from: the gateway serves the same at /api/v1/openapi.json. */
export const OPENAPI_FILE = path.join('apps', 'gateway', 'openapi.json');

/**
 * `openapi.js` writes the gateway's OpenAPI document to apps/gateway/openapi.json; `openapi.js
 * --check` exits 1 when the file differs from what the code describes. The module graph is built
 * in Nest's preview mode (no provider runs): no PostgreSQL, Kafka or chain is needed.
 */
async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const root = process.env.SWAPGW_ROOT ?? process.cwd();
  const file = path.join(root, OPENAPI_FILE);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.register(new GatewayConfig()),
    new FastifyAdapter(),
    {
      preview: true,
      logger: false,
      // A module that cannot be built rejects with Nest's error (printed below), not a silent exit.
      abortOnError: false,
    },
  );
  app.setGlobalPrefix(API_PREFIX);
  const document = buildOpenApiDocument(app);
  await app.close();
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (!check) {
    fs.writeFileSync(file, text);
    process.stdout.write(`openapi: wrote ${OPENAPI_FILE}\n`);
    return;
  }
  const committed: unknown = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
  // Compared as JSON (not text): a formatter may lay the file out differently.
  if (!isDeepStrictEqual(committed, JSON.parse(text))) {
    process.stderr.write(
      `openapi: ${OPENAPI_FILE} is not what the code describes; run \`npm run openapi\` and commit it\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`openapi: ${OPENAPI_FILE} is up to date\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`openapi: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
