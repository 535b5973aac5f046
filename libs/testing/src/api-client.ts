import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot, testEnv } from './test-env';

// Bodies default to `any` so tests can read `body.data.routes` as a user reads JSON; they assert on it.
export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the response is JSON, else the text. */
  body: T;
}

export interface ApiRequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Shortcut for the Idempotency-Key header. */
  idempotencyKey?: string;
  /** Query parameters appended to the path. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Abort the request after this long (default 30 s). */
  timeoutMs?: number;
}

export interface ApiClient {
  readonly baseUrl: string;
  request<T = any>(method: string, path: string, options?: ApiRequestOptions): Promise<ApiResponse<T>>;
  get<T = any>(path: string, options?: ApiRequestOptions): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown, options?: ApiRequestOptions): Promise<ApiResponse<T>>;
  delete<T = any>(path: string, options?: ApiRequestOptions): Promise<ApiResponse<T>>;
}

export interface ApiClientOptions {
  /**
   * Send through node:http with this agent instead of the global fetch. A load generator with
   * thousands of requests in flight needs it: fetch's connection pool for one origin looks through
   * every connection for a free one on each request (at 3,000 in flight the bench's client spent
   * more CPU there than the gateway did), and an agent takes a free socket at once.
   */
  agent?: http.Agent;
}

/** What a transport brings back: the status, the headers (a repeated one joined by ", ") and the body text. */
interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

type Transport = (
  url: URL,
  method: string,
  headers: Record<string, string>,
  payload: string | undefined,
  timeoutMs: number,
) => Promise<RawResponse>;

const viaFetch: Transport = async (url, method, headers, payload, timeoutMs) => {
  const response = await fetch(url, {
    method,
    headers,
    body: payload,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  const responseHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => (responseHeaders[name] = value));
  return { status: response.status, headers: responseHeaders, text };
};

/** node:http (or https) through `agent`; past `timeoutMs` it fails as fetch does, with a TimeoutError. */
const viaAgent =
  (agent: http.Agent): Transport =>
  (url, method, headers, payload, timeoutMs) =>
    new Promise<RawResponse>((resolve, reject) => {
      const send = url.protocol === 'https:' ? https.request : http.request;
      const request = send(
        url,
        {
          method,
          agent,
          headers:
            payload === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(payload) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', fail);
          response.on('end', () => {
            clearTimeout(timer);
            const responseHeaders: Record<string, string> = {};
            for (const [name, value] of Object.entries(response.headers))
              if (value !== undefined)
                responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
            resolve({
              status: response.statusCode ?? 0,
              headers: responseHeaders,
              text: Buffer.concat(chunks).toString('utf8'),
            });
          });
        },
      );
      function fail(error: Error): void {
        clearTimeout(timer);
        reject(error);
      }
      const timer = setTimeout(() => {
        const timeout = new Error(`no answer within ${timeoutMs} ms`);
        timeout.name = 'TimeoutError';
        request.destroy(timeout);
      }, timeoutMs);
      request.on('error', fail);
      request.end(payload);
    });

/**
 * A small HTTP client for e2e tests: `api(process.env.GATEWAY_URL, key).post('/quote', {...})`.
 * It never throws on a status code, so tests assert status and body as a user would see them.
 * `baseUrl` includes the `/api/v1` prefix; `key` is sent as `Authorization: Bearer <key>`.
 */
export function api(baseUrl: string, key?: string, options: ApiClientOptions = {}): ApiClient {
  const base = baseUrl.replace(/\/+$/, '');
  const transport = options.agent ? viaAgent(options.agent) : viaFetch;
  const request = async <T>(method: string, route: string, requestOptions: ApiRequestOptions = {}) => {
    const url = new URL(base + (route.startsWith('/') ? route : `/${route}`));
    for (const [name, value] of Object.entries(requestOptions.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json', ...requestOptions.headers };
    if (key) headers.authorization = `Bearer ${key}`;
    if (requestOptions.idempotencyKey) headers['idempotency-key'] = requestOptions.idempotencyKey;
    let payload: string | undefined;
    if (requestOptions.body !== undefined) {
      headers['content-type'] = headers['content-type'] ?? 'application/json';
      payload =
        typeof requestOptions.body === 'string' ? requestOptions.body : JSON.stringify(requestOptions.body);
    }
    const response = await transport(url, method, headers, payload, requestOptions.timeoutMs ?? 30_000);
    const contentType = response.headers['content-type'] ?? '';
    let body: unknown = response.text;
    if (contentType.includes('json') && response.text.length > 0) body = JSON.parse(response.text);
    return { status: response.status, headers: response.headers, body: body as T };
  };
  return {
    baseUrl: base,
    request,
    get: (route, options) => request('GET', route, options),
    post: (route, body, options) => request('POST', route, { ...options, body }),
    delete: (route, options) => request('DELETE', route, options),
  };
}

const execFileAsync = promisify(execFile);

/**
 * Creates an API key for `owner` with the gateway's keys CLI (the same command a user runs,
 * `npm run keys -- create --owner <owner>`) and returns the key, printed alone on its last line.
 */
export async function createApiKey(
  owner: string,
  env: Record<string, string> = testEnv().env,
): Promise<string> {
  const cli = path.join(repoRoot, 'dist', 'apps', 'gateway', 'src', 'cli', 'keys.js');
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` (gateway keys CLI)`);
  const { stdout } = await execFileAsync(process.execPath, [cli, 'create', '--owner', owner], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  const lines = stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const key = lines[lines.length - 1];
  if (!key) throw new Error(`keys CLI printed no key for owner ${owner}`);
  return key;
}
