import { AppHandle, AppName, APP_NAMES, appIsBuilt, startApp } from './app-process';

export interface StartStackOptions {
  /** Apps to start (default: all five). */
  apps?: readonly AppName[];
  /** How many gateway instances (default 1); each gets its own port. */
  gatewayInstances?: number;
  /** Extra environment for every app. */
  env?: Record<string, string>;
  /** Per-app extra environment. */
  appEnv?: Partial<Record<AppName, Record<string, string>>>;
  /** Skip (with a warning) apps whose build is missing instead of failing. */
  skipMissing?: boolean;
  /** How long each app may take to answer its readiness probe (default: startApp's, 90 s). */
  readyTimeoutMs?: number;
}

export interface Stack {
  /** Base URL (with /api/v1) of the first gateway instance. */
  gatewayUrl: string | undefined;
  /** Base URLs of all gateway instances. */
  gatewayUrls: string[];
  /** Metrics URLs (http://127.0.0.1:<METRICS_PORT>/metrics) of all gateway instances, in the same order. */
  gatewayMetricsUrls: string[];
  /** Every started process, gateways last. */
  handles: AppHandle[];
  /** The handle(s) of one app. */
  get(app: AppName): AppHandle[];
  /** Apps that were skipped because they are not built. */
  skipped: AppName[];
  stop(): Promise<void>;
}

/**
 * Starts the suite for e2e tests: the four Kafka services side by side, then the gateway
 * instance(s) once the services answer ready (so the first HTTP request finds its responders).
 */
export async function startStack(options: StartStackOptions = {}): Promise<Stack> {
  const wanted = options.apps ?? APP_NAMES;
  const skipped: AppName[] = [];
  const present = wanted.filter((app) => {
    if (appIsBuilt(app)) return true;
    if (!options.skipMissing) throw new Error(`app ${app} is not built (dist/apps/${app}/src/main.js)`);
    skipped.push(app);
    return false;
  });
  if (skipped.length > 0) process.stderr.write(`startStack: not built, skipped: ${skipped.join(', ')}\n`);

  const handles: AppHandle[] = [];
  const envFor = (app: AppName) => ({ ...options.env, ...options.appEnv?.[app] });
  const stop = async () => {
    // Gateways first so no request reaches a service that is going away.
    await Promise.all([...handles].reverse().map((h) => h.stop()));
  };
  try {
    const services = present.filter((app) => app !== 'gateway');
    const started = await Promise.allSettled(
      services.map((app) => startApp(app, { env: envFor(app), readyTimeoutMs: options.readyTimeoutMs })),
    );
    for (const result of started) if (result.status === 'fulfilled') handles.push(result.value);
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    if (present.includes('gateway')) {
      const count = options.gatewayInstances ?? 1;
      // Unique per stack: a fault suite starts a stack of its own beside the e2e one in the same
      // process, and the instance id names the log file and the reply consumer group.
      const stamp = Date.now().toString(36);
      for (let i = 0; i < count; i++) {
        handles.push(
          await startApp('gateway', {
            env: envFor('gateway'),
            readyTimeoutMs: options.readyTimeoutMs,
            instance: `gateway-${i + 1}-${process.pid}-${stamp}`,
          }),
        );
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const gateways = handles.filter((h) => h.app === 'gateway');
  const gatewayUrls = gateways.map((h) => h.baseUrl);
  return {
    gatewayUrl: gatewayUrls[0],
    gatewayUrls,
    gatewayMetricsUrls: gateways.map((h) => h.metricsUrl),
    handles,
    get: (app) => handles.filter((h) => h.app === app),
    skipped,
    stop,
  };
}
