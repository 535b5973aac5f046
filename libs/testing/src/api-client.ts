import { execFile } from 'node:child_process';
import fs from 'node:fs';
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

/**
 * A small HTTP client for e2e tests: `api(process.env.GATEWAY_URL, key).post('/quote', {...})`.
 * It never throws on a status code, so tests assert status and body as a user would see them.
 * `baseUrl` includes the `/api/v1` prefix; `key` is sent as `Authorization: Bearer <key>`.
 */
export function api(baseUrl: string, key?: string): ApiClient {
  const base = baseUrl.replace(/\/+$/, '');
  const request = async <T>(method: string, route: string, options: ApiRequestOptions = {}) => {
    const url = new URL(base + (route.startsWith('/') ? route : `/${route}`));
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (key) headers.authorization = `Bearer ${key}`;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    let payload: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = headers['content-type'] ?? 'application/json';
      payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const response = await fetch(url, {
      method,
      headers,
      body: payload,
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    let body: unknown = text;
    if (contentType.includes('json') && text.length > 0) body = JSON.parse(text);
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => (responseHeaders[name] = value));
    return { status: response.status, headers: responseHeaders, body: body as T };
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
