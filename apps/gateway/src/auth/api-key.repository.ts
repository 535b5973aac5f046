import { DataSource, IsNull, Repository } from 'typeorm';
import type { IntegratorFeeShare } from '@swapgw/contracts';
import { ApiKeyEntity } from './api-key.entity';
import { GeneratedApiKey, generateApiKey, hashApiKey, hashesEqual, publicPrefixOf } from './api-key';

export interface ApiKeyPrincipal {
  apiKeyId: string;
  owner: string;
  /** The operator's default integrator fee of the key (POST /quote without one); null: none. */
  integratorFee: IntegratorFeeShare[] | null;
}

export interface ApiKeySummary {
  prefix: string;
  owner: string;
  createdAt: Date;
  revokedAt: Date | null;
  integratorFee: IntegratorFeeShare[] | null;
}

const OWNER_FORMAT = /^[A-Za-z0-9._:@-]{1,200}$/;

/** Database side of API keys, used by the guard (through ApiKeyAuthenticator) and the keys CLI. */
export class ApiKeyRepository {
  private readonly repository: Repository<ApiKeyEntity>;

  constructor(dataSource: DataSource) {
    this.repository = dataSource.getRepository(ApiKeyEntity);
  }

  /** Creates a key for `owner`; the returned `key` is the only time the secret exists in clear. */
  async create(owner: string): Promise<GeneratedApiKey> {
    if (!OWNER_FORMAT.test(owner)) {
      throw new Error('owner must be 1-200 characters of A-Za-z0-9._:@-');
    }
    // The 48-bit public prefix can collide (rarely); draw again rather than fail.
    for (let attempt = 0; attempt < 5; attempt++) {
      const generated = generateApiKey();
      const inserted = await this.repository
        .createQueryBuilder()
        .insert()
        .values({ prefix: generated.prefix, keyHash: generated.keyHash, owner })
        .orIgnore()
        .execute();
      if ((inserted.raw as unknown[]).length > 0) return generated;
    }
    throw new Error('could not allocate a unique key prefix');
  }

  /** The owner of an active key, comparing hashes in constant time; null for unknown or revoked keys. */
  async resolve(key: string): Promise<ApiKeyPrincipal | null> {
    const row = await this.repository.findOne({
      where: { prefix: publicPrefixOf(key), revokedAt: IsNull() },
    });
    const presented = hashApiKey(key);
    // Compare even when no row matched so that timing does not tell a known prefix apart.
    const stored = row?.keyHash ?? '0'.repeat(64);
    const equal = hashesEqual(stored, presented);
    return row && equal
      ? { apiKeyId: row.id, owner: row.owner, integratorFee: row.integratorFee ?? null }
      : null;
  }

  async list(): Promise<ApiKeySummary[]> {
    const rows = await this.repository.find({ order: { createdAt: 'ASC' } });
    return rows.map(({ prefix, owner, createdAt, revokedAt, integratorFee }) => ({
      prefix,
      owner,
      createdAt,
      revokedAt,
      integratorFee: integratorFee ?? null,
    }));
  }

  /**
   * Sets (or, with null, clears) the default integrator fee of the active key with that prefix;
   * false when there is none. The shares are checked by the caller (integratorFeeSharesOf). Every
   * gateway instance applies it within AUTH_CACHE_TTL_MS.
   */
  async setIntegratorFee(prefix: string, shares: IntegratorFeeShare[] | null): Promise<boolean> {
    const result = await this.repository
      .createQueryBuilder()
      .update()
      .set({ integratorFee: () => ':fee::jsonb' })
      .setParameter('fee', shares === null ? null : JSON.stringify(shares))
      .where('prefix = :prefix AND revoked_at IS NULL', { prefix })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Marks the key revoked; false when no active key has that prefix. */
  async revoke(prefix: string): Promise<boolean> {
    const result = await this.repository.update(
      { prefix, revokedAt: IsNull() },
      { revokedAt: () => 'now()' },
    );
    return (result.affected ?? 0) > 0;
  }
}
