import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { ErrorCatalog } from '@swapgw/contracts';
import { createApiKey } from '@swapgw/testing';

// Property-based bad input against the running gateway: every operation of its own OpenAPI
// document (GET /api/v1/openapi.json) gets requests generated from the documented parameters and
// body schema, then mutated: wrong types, missing and unknown fields, huge strings, odd unicode
// (lone surrogates, NUL, bidi controls), non-object bodies, malformed JSON, wrong content types, and
// bad Authorization, Idempotency-Key and X-Request-Id headers. The property a client relies on:
// no 5xx, and every error is an ApiError { error: { code, message }, meta: { requestId, timestamp } }
// whose code is in the ErrorCatalog with the status it was answered with.
// Bounded: FUZZ_RUNS runs per operation (default 60) and FUZZ_MS per operation (default 6000).
// Request heads over 16 KiB are refused by Node's HTTP parser before Fastify; the gateway still
// answers those with an ApiError (431 HEADERS_TOO_LARGE), so they stay in scope.

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
};
type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: Schema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  security?: unknown[];
};
type Document = {
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

/**
 * The one 5xx the contract documents for bad-looking input: a status look-up of a well-formed hash on
 * a listed real network (ethereum) that this devnet stack has no RPC for is the upstream error, 502.
 */
function isDocumentedUpstreamError(path: string, status: number, text: string): boolean {
  if (path !== '/api/v1/status/transaction/{txHash}' || status !== 502) return false;
  const error = JSON.parse(text)?.error;
  return (
    error?.code === 'STATUS_UPSTREAM_ERROR' && !String(error?.details?.chainRef ?? '').startsWith('devnet')
  );
}

interface FuzzRequest {
  method: string;
  path: string;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body?: string;
}

const RUNS = Number(process.env.FUZZ_RUNS || 60);
const TIME_PER_OPERATION_MS = Number(process.env.FUZZ_MS || 6000);
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const SKIPPED_PATHS = new Set(['/api/v1/openapi.json']);

/** Values the services know, so generated requests also get past the first validation layer. */
const PLAUSIBLE = [
  'devnet-a',
  'devnet-b',
  'ethereum',
  'USDC',
  'DAI',
  'WETH',
  'ETH',
  '1',
  '0.5',
  '1000000',
  'GTC',
  'GTD',
  'IOC',
  'FOK',
  'mainnet',
  'testnet',
  'eip2612',
  'permit2',
  'approve',
  'open',
  'canceled',
  'true',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  `0x${'ab'.repeat(32)}`,
  randomUUID(),
  'evm:31337:erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3',
];
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF\uD800',
  '\u202Eevil',
  '\u200B',
  '💥🔥',
  'Z̷̢̛a̶l̸g̵o̷',
  '١٢٣',
  '-1',
  '0',
  '1e308',
  '0x10',
  'NaN',
  'Infinity',
  '1.00000000000000000000000000000000001',
  ' 1 ',
  "'; DROP TABLE gateway.api_keys; --",
  '../../etc/passwd',
  '%00',
  '{"$gt":""}',
  '__proto__',
];

function deref(document: Document, schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (schema.$ref) return deref(document, document.components?.schemas?.[schema.$ref.split('/').pop()!]);
  if (schema.allOf)
    return schema.allOf.reduce<Schema>((merged, part) => {
      const s = deref(document, part);
      return {
        ...merged,
        ...s,
        properties: { ...merged.properties, ...s.properties },
        required: [...(merged.required ?? []), ...(s.required ?? [])],
      };
    }, {});
  if (schema.oneOf ?? schema.anyOf) return deref(document, (schema.oneOf ?? schema.anyOf)![0]);
  return schema;
}

/** Anything a careless or hostile client might put where a value belongs. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.nat({ max: 20_000 }).map((n) => 'x'.repeat(n)),
  fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);

function plausibleValue(document: Document, raw: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const schema = deref(document, raw);
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1_000, -1e9),
        max: Math.min(schema.maximum ?? 2_000_000_000_000, 2e12),
      });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(plausibleValue(document, schema.items, depth + 1), { maxLength: 3 });
    case 'object':
      return depth > 3 ? fc.constant({}) : objectOf(document, schema, depth + 1);
    default:
      return fc.oneof(fc.constantFrom(...PLAUSIBLE), fc.string({ maxLength: 16 }));
  }
}

/** An object of the schema where each field is left out, plausible or wrong; sometimes an unknown one more. */
function objectOf(document: Document, schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const fields = entries.map(([name, propertySchema]) => {
    const choices: Array<fc.Arbitrary<unknown>> = [
      plausibleValue(document, propertySchema, depth),
      plausibleValue(document, propertySchema, depth),
      wrongValue,
    ];
    const value = fc.oneof(...choices);
    // Required fields are mostly present (so validation goes deeper), optional ones often absent.
    return fc
      .tuple(fc.constant(name), fc.integer({ min: 0, max: 9 }), value)
      .map(([n, dice, v]) => (dice < (required.has(n) ? 1 : 4) ? undefined : ([n, v] as [string, unknown])));
  });
  const extra = fc.option(
    fc.tuple(fc.constantFrom('unexpected', '__proto__', 'constructor', 'é'), wrongValue),
    { freq: 4 },
  );
  return fc.tuple(fc.tuple(...fields), extra).map(([pairs, more]) => {
    const object: Record<string, unknown> = {};
    for (const pair of pairs) if (pair) object[pair[0]] = pair[1];
    if (more)
      Object.defineProperty(object, more[0], {
        value: more[1],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return object;
  });
}

/** Percent-encodes UTF-8 bytes (a lone surrogate becomes U+FFFD, as any client library would send it). */
const encodeSegment = (value: string) =>
  [...Buffer.from(value, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9._~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0')}`,
    )
    .join('');
const stringOf = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** Header values fetch can send: printable ASCII and Latin-1, no CR/LF, bounded below Node's 16 KiB header limit. */
const headerText = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0xa0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.nat({ max: 4000 }).map((n) => 'k'.repeat(n)),
);

function authorizationOf(key: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(`Bearer ${key}`) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.constantFrom(
          'Bearer ',
          'Bearer sgw_unknown',
          'Basic dXNlcjpwYXNz',
          `bearer ${key}`,
          key,
          `Bearer ${key} extra`,
          `Bearer  ${key}`,
          `Token ${key}`,
        ),
        headerText.map((t) => `Bearer ${t}`),
        headerText,
      ),
    },
  );
}

const idempotencyKey: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.uuid(),
  fc.constantFrom('', 'k'.repeat(201), 'has space', 'semi;colon', 'é', 'a/b', 'x'.repeat(200)),
  headerText,
);

function requestsFor(
  document: Document,
  method: string,
  path: string,
  operation: Operation,
  key: string,
): fc.Arbitrary<FuzzRequest> {
  const parameters = operation.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === 'path');
  const queryParams = parameters.filter((p) => p.in === 'query');
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  const paramValue = (p: Parameter) => fc.oneof(plausibleValue(document, p.schema), wrongValue).map(stringOf);
  // Percent-encoded like any client library would, or sent raw with broken percent-escapes.
  const pathSegment = (p: Parameter) =>
    fc.oneof(
      { weight: 5, arbitrary: paramValue(p).map(encodeSegment) },
      { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AF', 'a%2Fb', '..') },
    );

  const pathArb = fc.tuple(...pathParams.map(pathSegment)).map((segments) => {
    let concrete = path;
    pathParams.forEach((p, i) => (concrete = concrete.replace(`{${p.name}}`, segments[i])));
    return concrete;
  });
  const queryArb = fc
    .tuple(
      fc.tuple(
        ...queryParams.map((p) =>
          fc
            .option(paramValue(p), { freq: 2 })
            .map((v) => (v === null ? undefined : ([p.name, v] as [string, string]))),
        ),
      ),
      fc.option(fc.tuple(fc.constantFrom('unknown', 'limit', 'cursor'), headerText), { freq: 5 }),
    )
    .map(([pairs, extra]) => [
      ...pairs.filter((p): p is [string, string] => p !== undefined),
      ...(extra ? [extra] : []),
    ]);
  const bodyArb: fc.Arbitrary<{ text?: string; contentType?: string }> = bodySchema
    ? fc.oneof(
        {
          weight: 6,
          arbitrary: plausibleValue(document, bodySchema).map((b) => ({
            text: JSON.stringify(b),
            contentType: 'application/json',
          })),
        },
        {
          weight: 1,
          arbitrary: wrongValue.map((b) => ({
            text: JSON.stringify(b) ?? 'null',
            contentType: 'application/json',
          })),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            { text: '{"amount":', contentType: 'application/json' },
            { text: '', contentType: 'application/json' },
            { text: 'amount=1', contentType: 'application/x-www-form-urlencoded' },
            { text: '{"amount":"1"}', contentType: 'text/plain' },
            { text: `{"a":"${'x'.repeat(70_000)}"}`, contentType: 'application/json' },
            { text: '[]', contentType: 'application/json; charset=latin1' },
          ),
        },
      )
    : method === 'get'
      ? fc.constant({}) // fetch cannot send a GET body
      : fc
          .option(fc.constantFrom({ text: '{"unexpected":true}', contentType: 'application/json' }), {
            freq: 6,
          })
          .map((b) => b ?? {});

  return fc
    .record({
      path: pathArb,
      query: queryArb,
      body: bodyArb,
      authorization: authorizationOf(key),
      idempotencyKey,
      requestId: fc.option(headerText, { freq: 3 }),
    })
    .map(({ path: concrete, query, body, authorization, idempotencyKey: idem, requestId }) => {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (authorization !== undefined) headers.authorization = authorization;
      if (idem !== undefined) headers['idempotency-key'] = idem;
      if (requestId !== null) headers['x-request-id'] = requestId;
      if (body.contentType) headers['content-type'] = body.contentType;
      return { method: method.toUpperCase(), path: concrete, query, headers, body: body.text };
    });
}

function describeRequest(request: FuzzRequest): string {
  const short = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}… (${s.length} chars)` : s);
  return short(
    JSON.stringify({ ...request, body: request.body === undefined ? undefined : short(request.body) }),
  );
}

describe('bad input against every documented operation', () => {
  const origin = (process.env.GATEWAY_URL ?? '').replace(/\/api\/v1\/?$/, '');
  let document: Document;
  const keys: string[] = [];
  const operations: Array<{ method: string; path: string; operation: Operation }> = [];

  beforeAll(async () => {
    if (!process.env.GATEWAY_URL) throw new Error('GATEWAY_URL is not set: run through the e2e project');
    const response = await fetch(`${origin}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as Document;
    // Document paths are relative to its server (`/api/v1`); requests and the checks below use the full path.
    const serverPath = (document.servers?.[0]?.url ?? '').replace(/\/+$/, '');
    for (const [relative, item] of Object.entries(document.paths)) {
      const path = `${serverPath}${relative}`;
      if (SKIPPED_PATHS.has(path)) continue;
      for (const method of HTTP_METHODS)
        if (item[method]) operations.push({ method, path, operation: item[method] });
    }
    // One key per three operations keeps every key far below the per-key rate limit.
    const owner = `fuzz-${randomUUID().slice(0, 8)}`;
    const needed = Math.ceil(operations.length / 3);
    keys.push(
      ...(await Promise.all(Array.from({ length: needed }, (_, i) => createApiKey(`${owner}-${i}`)))),
    );
  });

  it('covers the whole document', () => {
    // Guards against a document that silently lost its paths: then the property below would prove nothing.
    const covered = new Set(operations.map((o) => o.path));
    for (const path of [
      '/api/v1/quote',
      '/api/v1/swap/build',
      '/api/v1/swap/{swapId}/signing',
      '/api/v1/limit-orders/limit',
      '/api/v1/status/transaction/{txHash}',
    ]) {
      expect(covered).toContain(path);
    }
  });

  it('never answers 5xx, and every error is an ApiError with a catalog code', async () => {
    const seen = new Map<string, Set<number>>();
    const problems: string[] = [];
    for (const [index, { method, path, operation }] of operations.entries()) {
      const statuses = new Set<number>();
      seen.set(`${method.toUpperCase()} ${path}`, statuses);
      const property = fc.asyncProperty(
        requestsFor(document, method, path, operation, keys[Math.floor(index / 3)]),
        async (request) => {
          const url = new URL(origin + request.path);
          for (const [name, value] of request.query) url.searchParams.append(name, value);
          const response = await fetch(url, {
            method: request.method,
            headers: request.headers,
            body: request.body,
            signal: AbortSignal.timeout(30_000),
          });
          const text = await response.text();
          statuses.add(response.status);
          const where = `${request.method} ${path} → ${response.status} ${text.slice(0, 300)}\nrequest: ${describeRequest(request)}`;
          if (response.status >= 500 && !isDocumentedUpstreamError(path, response.status, text))
            throw new Error(`5xx: ${where}`);
          if (response.status < 400) return;
          let body: any;
          try {
            body = JSON.parse(text);
          } catch {
            throw new Error(`error body is not JSON: ${where}`);
          }
          const code = body?.error?.code;
          if (typeof code !== 'string' || !(code in ErrorCatalog))
            throw new Error(`code not in the ErrorCatalog: ${where}`);
          if (ErrorCatalog[code as keyof typeof ErrorCatalog].status !== response.status)
            throw new Error(`catalog status of ${code} differs: ${where}`);
          if (
            typeof body.error.message !== 'string' ||
            typeof body.meta?.requestId !== 'string' ||
            Number.isNaN(Date.parse(body.meta?.timestamp))
          ) {
            throw new Error(`not an ApiError: ${where}`);
          }
        },
      );
      // fc.check, not fc.assert: every operation is fuzzed even when an earlier one fails, and the
      // failure lists each operation's shrunk counterexample with its seed for replay.
      const details = await fc.check(property, {
        numRuns: RUNS,
        interruptAfterTimeLimit: TIME_PER_OPERATION_MS,
        markInterruptAsFailure: false,
      });
      if (details.failed) {
        const cause =
          details.errorInstance instanceof Error
            ? details.errorInstance.message
            : String(details.errorInstance);
        problems.push(
          `${method.toUpperCase()} ${path} (seed ${details.seed}, path ${details.counterexamplePath}): ${cause}`,
        );
      }
    }
    expect(problems).toEqual([]);
    // Each operation saw at least one request, and the fuzzing reached both refusals and the handlers.
    for (const [operation, statuses] of seen)
      expect({ operation, answered: statuses.size > 0 }).toEqual({ operation, answered: true });
    const all = new Set([...seen.values()].flatMap((s) => [...s]));
    expect([...all].some((s) => s >= 400 && s < 500)).toBe(true);
    expect([...all].some((s) => s >= 200 && s < 300)).toBe(true);
  });
});
