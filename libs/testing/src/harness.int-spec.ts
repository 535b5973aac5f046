import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { startApp } from './app-process';
import { api } from './api-client';
import { startKafkaBroker } from './kafka-broker';
import { waitFor } from './wait-for';

const portAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('harness: Kafka through tools/kafka', () => {
  it('starts a fresh KRaft broker that serves topics and messages, and stops it', async () => {
    const broker = await startKafkaBroker();
    const kafka = new Kafka({
      clientId: 'harness-test',
      brokers: [broker.brokers],
      logLevel: logLevel.NOTHING,
    });
    const admin = kafka.admin();
    const producer = kafka.producer();
    const consumer = kafka.consumer({ groupId: 'harness-test' });
    try {
      await admin.connect();
      // A fresh data dir: no topics of earlier runs; auto-creation is off, so creation is explicit.
      expect((await admin.listTopics()).filter((t) => !t.startsWith('__'))).toEqual([]);
      await admin.createTopics({
        topics: [{ topic: 'harness.check', numPartitions: 2 }],
        waitForLeaders: true,
      });
      await producer.connect();
      await producer.send({ topic: 'harness.check', messages: [{ key: 'k', value: 'hello' }] });
      const received: string[] = [];
      await consumer.connect();
      await consumer.subscribe({ topic: 'harness.check', fromBeginning: true });
      await consumer.run({ eachMessage: async ({ message }) => void received.push(String(message.value)) });
      await waitFor(() => received.length === 1, { timeoutMs: 30_000, description: 'the produced message' });
      expect(received).toEqual(['hello']);
    } finally {
      await consumer.disconnect();
      await producer.disconnect();
      await admin.disconnect();
      await broker.stop();
    }
    expect(await portAnswers(broker.port)).toBe(false);
    expect(fs.existsSync(broker.dataDir)).toBe(false);
  });
});

describe('harness: startApp', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-harness-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  // A stand-in for an app: serves /health/ready on HEALTH_PORT after a short start-up, reports
  // its pid and the env it received, and logs a line on SIGTERM before exiting.
  const fakeApp = () => {
    const file = path.join(dir, 'fake-app.js');
    fs.writeFileSync(
      file,
      `const http = require('node:http');
       let ready = false;
       setTimeout(() => (ready = true), 300);
       http.createServer((req, res) => {
         if (req.url === '/health/ready') { res.statusCode = ready ? 200 : 503; res.end(); return; }
         res.setHeader('content-type', 'application/json');
         res.end(JSON.stringify({ pid: process.pid, instance: process.env.INSTANCE_ID, kafka: process.env.KAFKA_BROKERS }));
       }).listen(Number(process.env.HEALTH_PORT), '127.0.0.1', () => console.log('fake app listening'));
       process.on('SIGTERM', () => { console.log('fake app got SIGTERM'); process.exit(0); });`,
    );
    return file;
  };

  it('waits for readiness, passes the environment, and stops, kills and restarts the process', async () => {
    const app = await startApp('fake-app', { entry: fakeApp(), env: { KAFKA_BROKERS: '127.0.0.1:1' } });
    try {
      const first = await api(app.baseUrl).get('/info');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ pid: app.pid(), instance: app.instanceId, kafka: '127.0.0.1:1' });
      expect(app.logs()).toContain('fake app listening');

      await app.kill('SIGKILL');
      expect(app.running()).toBe(false);
      expect(await portAnswers(Number(app.env.HEALTH_PORT))).toBe(false);

      await app.restart();
      const second = await api(app.baseUrl).get('/info');
      expect(second.body.pid).not.toBe(first.body.pid);
      expect(second.body.pid).toBe(app.pid());
    } finally {
      await app.stop();
    }
    expect(app.running()).toBe(false);
    expect(app.logs()).toContain('fake app got SIGTERM');
    expect(fs.readFileSync(app.logFile, 'utf8')).toContain('fake app listening');
  });

  it('fails with the log tail when the app dies before it is ready', async () => {
    const file = path.join(dir, 'crashing-app.js');
    fs.writeFileSync(file, `console.error('config invalid: DATABASE_URL'); process.exit(78);`);
    await expect(startApp('crashing-app', { entry: file, readyTimeoutMs: 10_000 })).rejects.toThrow(
      /exited before it was ready[\s\S]*config invalid: DATABASE_URL/,
    );
  });
});
