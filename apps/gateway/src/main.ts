import 'reflect-metadata';
import { telemetry } from './instrument';
import { Logger } from '@nestjs/common';
import { closeOnSignals, loadConfigOrExit } from '@swapgw/runtime';
import { createGatewayApp } from './bootstrap/create-gateway-app';
import { GatewayConfig } from './config/gateway.config';

async function main(): Promise<void> {
  const config = loadConfigOrExit(GatewayConfig, 'gateway');
  const logger = new Logger('Main');
  const { app, startConsumers, listen } = await createGatewayApp(config);

  // Graceful shutdown: stop accepting, let in-flight requests finish (bounded), close Kafka and
  // the database pool, flush the spans still buffered, then exit.
  const { shutDown } = closeOnSignals(
    async () => {
      await app.close();
      await telemetry?.shutdown();
    },
    logger,
    { timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
  );

  await listen();
  logger.log({
    msg: 'gateway listening',
    url: `http://${config.HOST}:${config.PORT}/api/v1`,
    instanceId: config.INSTANCE_ID,
  });
  // Without its consumers the swap read model would silently stop: if they cannot start (Kafka
  // away beyond kafkajs's retries), exit so that the supervisor restarts the instance.
  startConsumers().catch((error: Error) => {
    logger.fatal({ msg: 'Kafka consumers could not start; exiting', error: error.message });
    shutDown('consumer-failure', 1);
  });
}

main().catch((error: Error) => {
  process.stderr.write(
    JSON.stringify({
      level: 'fatal',
      service: 'gateway',
      msg: 'gateway failed to start',
      error: error.message,
      stack: error.stack,
      time: new Date().toISOString(),
    }) + '\n',
  );
  process.exit(1);
});
