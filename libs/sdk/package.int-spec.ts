import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';

// @swapgw/sdk as an integrator gets it: built (tools/build/build-sdk.mjs), packed by `npm pack`, and
// installed from the tarball into an empty project outside the repository with `npm install
// --offline` (its dependency, openapi-fetch, packed from the repository's node_modules: the test
// uses no registry). The installed package must then load from CommonJS and from an ES module,
// verify a webhook signed by the standardwebhooks package, and type-check a consumer's TypeScript.

const repoRoot = path.resolve(__dirname, '..', '..');

function run(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; output: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env };
    delete env.NODE_PATH;
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (d: Buffer) => ((stdout += d.toString()), (output += d.toString())));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', (error) => resolve({ code: null, stdout, output: `${output}\n${error.message}` }));
    child.once('close', (code) => resolve({ code, stdout, output }));
  });
}

async function ok(command: string, args: string[], cwd: string): Promise<string> {
  const result = await run(command, args, cwd);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.code}):\n${result.output.slice(-3000)}`);
  return result.stdout;
}

describe('the @swapgw/sdk package: packed, installed offline, loaded', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-sdk-package-'));
  const consumer = path.join(work, 'consumer');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  let tarball: string;

  beforeAll(async () => {
    const built = await ok(
      process.execPath,
      [
        path.join(repoRoot, 'tools', 'build', 'build-sdk.mjs'),
        '--out-dir',
        path.join(work, 'package'),
        '--pack',
      ],
      repoRoot,
    );
    tarball = built.trim().split('\n').pop()!;
    const deps = path.join(work, 'deps');
    fs.mkdirSync(deps);
    const packed: string[] = [];
    for (const name of ['openapi-fetch', 'openapi-typescript-helpers']) {
      const out = await ok(
        npm,
        ['pack', '--json', '--pack-destination', deps, path.join(repoRoot, 'node_modules', name)],
        repoRoot,
      );
      packed.push(path.join(deps, (JSON.parse(out) as Array<{ filename: string }>)[0].filename));
    }
    fs.mkdirSync(consumer);
    fs.writeFileSync(
      path.join(consumer, 'package.json'),
      JSON.stringify({ name: 'wallet-backend', version: '1.0.0', private: true }),
    );
    await ok(
      npm,
      ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball, ...packed],
      consumer,
    );
  }, 180_000);

  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('packs the built JavaScript, the declarations (generated API types included), README and LICENSE', async () => {
    expect(path.basename(tarball)).toBe(
      `swapgw-sdk-${JSON.parse(fs.readFileSync(path.join(repoRoot, 'libs', 'sdk', 'package.json'), 'utf8')).version}.tgz`,
    );
    const installed = path.join(consumer, 'node_modules', '@swapgw', 'sdk');
    for (const file of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/gateway-api.d.ts',
      'dist/solana.js',
      'dist/solana.d.ts',
    ])
      expect(fs.existsSync(path.join(installed, file))).toBe(true);
    expect(fs.readdirSync(path.join(installed, 'dist')).filter((f) => f.includes('spec'))).toEqual([]);
  });

  it('loads from CommonJS and from an ES module, and verifies a webhook the standardwebhooks package signed', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const t = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({
      id: 'd1',
      eventId: 'e1',
      type: 'swap.completed',
      occurredAtMs: 1,
      data: { swapId: 's1' },
    });
    const headers = {
      'webhook-id': 'd1',
      'webhook-timestamp': String(t),
      'webhook-signature': new Webhook(secret).sign('d1', new Date(t * 1000), body),
    };
    const args = JSON.stringify({ secret, headers, body });
    const cjs = await ok(
      process.execPath,
      [
        '-e',
        `const sdk = require('@swapgw/sdk'); const a = ${args}; sdk.verifyWebhook(a.secret, a.headers, a.body).then((d) => console.log(JSON.stringify({ type: d.type, exports: Object.keys(sdk).sort() })));`,
      ],
      consumer,
    );
    expect(JSON.parse(cjs)).toEqual({
      type: 'swap.completed',
      exports: expect.arrayContaining([
        'createGatewayClient',
        'runSwap',
        'ethersSigner',
        'viemSigner',
        'customSigner',
        'swapEvents',
        'verifyWebhook',
        'GatewayApiError',
      ]),
    });
    const esm = await ok(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { verifyWebhook, createGatewayClient } from '@swapgw/sdk'; const a = ${args}; a.body = a.body.replace('completed', 'failed'); const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'k' }); await verifyWebhook(a.secret, a.headers, a.body).then(() => console.log('verified'), (e) => console.log(e.name, e.reason, typeof client.GET));`,
      ],
      consumer,
    );
    expect(esm.trim()).toBe('WebhookVerificationError mismatch function');
  });

  it("type-checks a consumer's TypeScript against the installed declarations (paths and bodies typed, not any)", async () => {
    fs.writeFileSync(
      path.join(consumer, 'consumer.ts'),
      [
        "import { createGatewayClient, runSwap, viemSigner, type Quote, type SwapStatus } from '@swapgw/sdk';",
        "const client = createGatewayClient({ baseUrl: 'https://gw.example/api/v1', apiKey: 'sgw_x' });",
        'export async function quote(): Promise<Quote | undefined> {',
        "  const { data } = await client.POST('/quote', { body: { fromChain: 'a', toChain: 'b', tokenIn: 'USDC', tokenOut: 'WETH', amount: '1' } });",
        '  return data?.data;',
        '}',
        "export const done: SwapStatus = 'completed';",
        '// @ts-expect-error: not a path of the API',
        "export const wrong = client.GET('/no-such-path');",
        'export const run = (account: Parameters<typeof viemSigner>[0]) =>',
        "  runSwap({ client, quoteRequest: { fromChain: 'a', toChain: 'a', tokenIn: 'USDC', tokenOut: 'WETH', amount: '1' }, userAddress: '0x0', signers: [viemSigner(account)] });",
        '',
      ].join('\n'),
    );
    // A consumer's own settings: Node 16+ resolution (the package's exports map), no @types/node, full lib checks.
    fs.writeFileSync(
      path.join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          target: 'es2022',
          module: 'node16',
          moduleResolution: 'node16',
          lib: ['es2022', 'dom'],
          types: [],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], consumer);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  });
});
