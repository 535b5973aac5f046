import { JsonLogger } from './json-logger';
import { runWithRequestContext } from './request-context';

// What an operator's log pipeline reads: one JSON object per line, linked to its trace, and never a
// secret, whatever field or message it was logged under.
describe('JsonLogger', () => {
  let lines: string[];
  let write: jest.SpyInstance;
  beforeEach(() => {
    lines = [];
    write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
  });
  afterEach(() => write.mockRestore());
  const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  it('writes level, time, service, context, requestId, trace_id and span_id of the current span', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const spanId = '00f067aa0ba902b7';
    runWithRequestContext({ requestId: 'req-1', traceparent: `00-${traceId}-${spanId}-01` }, () =>
      new JsonLogger('quote-service').log({ msg: 'quoted', routes: 3 }, 'QuoteService'),
    );
    expect(logged()).toEqual([
      {
        level: 'info',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        service: 'quote-service',
        context: 'QuoteService',
        requestId: 'req-1',
        trace_id: traceId,
        span_id: spanId,
        msg: 'quoted',
        routes: 3,
      },
    ]);
    expect(lines[0].endsWith('}\n')).toBe(true);
  });

  it('leaves trace_id and span_id out of the lines of no request', () => {
    new JsonLogger('gateway').warn('starting');
    expect(logged()[0]).toMatchObject({ level: 'warn', msg: 'starting' });
    expect(logged()[0]).not.toHaveProperty('trace_id');
  });

  // One of each secret kind the suite handles, as it could reach a log call.
  const privateKey = '59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
  const mnemonic = 'test test test test test test test test test test test junk';
  const signature = `0x${'ab'.repeat(65)}`;
  const signedTransaction = `0x02f8b1${'5c'.repeat(160)}`;
  const apiKey = 'sgw_3q2-7wEAAAAxYXV0aGVudGljYXRpb24ta2V5LWRhdGE';
  const webhookSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/7w4BqxUmgY=';
  const dbPassword = 'db-pass-Hx81';
  const kafkaPassword = 'kafka-pass-Zq42';
  const solanaSecretKey = Array.from({ length: 64 }, (_, i) => (i * 7) % 256);
  const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';
  const secrets = [
    privateKey,
    mnemonic,
    signature.slice(2),
    signedTransaction.slice(6),
    apiKey,
    webhookSecret,
    dbPassword,
    kafkaPassword,
    'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
  ];

  it('never writes a secret logged under its own field name', () => {
    const logger = new JsonLogger('signer-surface');
    logger.log({
      msg: 'everything at once',
      privateKey,
      wallet: { mnemonic, secretKey: solanaSecretKey },
      signature,
      signedTransaction,
      headers: { authorization: `Bearer ${apiKey}`, 'x-api-key': apiKey, 'content-type': 'application/json' },
      webhook: { url: 'https://hooks.example/x', secret: webhookSecret },
      DATABASE_URL: `postgres://swapgw:${dbPassword}@db:5432/swapgw`,
      KAFKA_SASL_PASSWORD: kafkaPassword,
      tls: { sslKey: pem },
      txHash: `0x${'12'.repeat(32)}`,
      userAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    });
    const [line] = lines;
    for (const secret of secrets) expect(line).not.toContain(secret);
    expect(line).not.toContain(String(solanaSecretKey.slice(0, 8)));
    const parsed = logged()[0];
    expect(parsed).toMatchObject({
      privateKey: '[REDACTED]',
      signature: '[REDACTED]',
      headers: { authorization: '[REDACTED]', 'x-api-key': '[REDACTED]', 'content-type': 'application/json' },
      webhook: { url: 'https://hooks.example/x', secret: '[REDACTED]' },
      // What an operator greps for stays readable.
      txHash: `0x${'12'.repeat(32)}`,
      userAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    });
  });

  it('never writes a secret that reached a message, an innocent field, an error or an extra argument', () => {
    const logger = new JsonLogger('gateway');
    logger.error(`cannot connect to postgres://swapgw:${dbPassword}@db:5432/swapgw`);
    logger.warn({ msg: 'request failed', error: `upstream said: Authorization: Bearer ${apiKey}` });
    logger.log({ msg: 'imported', note: mnemonic, data: privateKey, raw: signedTransaction });
    logger.error(new Error(`bad key ${privateKey}`));
    logger.error('sign failed', { signatures: [signature] }, new Error(`kafka sasl ${kafkaPassword}`), 'Ctx');
    logger.log({ msg: 'key file', content: pem });
    logger.log({ msg: 'webhook', value: webhookSecret });
    const all = lines.join('');
    // A bare password in free text has no shape to recognise (the Kafka one, in the error above):
    // only a field name or a URL's user:password@ gives it away.
    for (const secret of secrets.filter((s) => s !== kafkaPassword)) expect(all).not.toContain(secret);
    expect(logged()[0].msg).toBe('cannot connect to postgres://swapgw:[REDACTED]@db:5432/swapgw');
    expect(logged()[4]).toMatchObject({
      context: 'Ctx',
      detail: [{ signatures: '[REDACTED]' }, expect.any(String)],
    });
  });
});
