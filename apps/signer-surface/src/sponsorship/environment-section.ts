import type { SignerSurfaceConfig } from '../config/signer-surface.config';
import type { RelayerKeysReading } from './relayer-keys';

/**
 * A chain family's section of signer-surface's environment (its variables, a mixin over
 * SignerSurfaceConfig in its folder, composed at the root): which loaded configs carry it, their
 * sponsor keys read once, and the accessor the family's settings read it through.
 */
export class EnvironmentSection<Variables extends object> {
  private readonly loaded = new WeakSet<object>();
  private readonly keyReadings = new WeakMap<object, RelayerKeysReading>();

  /** `name`: the family and the mixin, for the message of a config loaded without it. */
  constructor(private readonly name: string) {}

  /** Called by the section's mixin as a config is built: `config` carries the section. */
  carriedBy(config: object): void {
    this.loaded.add(config);
  }

  /** The sponsor keys of `config`, read by `read` the first time (at validation), then kept. */
  keysOf(config: object, read: () => RelayerKeysReading): RelayerKeysReading {
    let reading = this.keyReadings.get(config);
    if (!reading) {
      reading = read();
      this.keyReadings.set(config, reading);
    }
    return reading;
  }

  /** The section's variables of the loaded config; throws when it was loaded without the section. */
  of(config: SignerSurfaceConfig): SignerSurfaceConfig & Variables {
    if (!this.loaded.has(config)) throw new Error(`The config was loaded without the ${this.name} section`);
    return config as SignerSurfaceConfig & Variables;
  }
}
