/** jest globalTeardown of the e2e project: stops what e2e-global-setup.ts started. */
export default async function e2eGlobalTeardown(): Promise<void> {
  const stack = globalThis.__SWAPGW_E2E_STACK__;
  globalThis.__SWAPGW_E2E_STACK__ = undefined;
  await stack?.stop();
  await globalThis.__SWAPGW_E2E_OTLP__?.close();
  globalThis.__SWAPGW_E2E_OTLP__ = undefined;
}
