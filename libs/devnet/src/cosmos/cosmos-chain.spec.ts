import { makeCosmoshubPath } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet, makeAuthInfoBytes, makeSignDoc, Registry } from '@cosmjs/proto-signing';
import { defaultRegistryTypes } from '@cosmjs/stargate';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { DEVNET_MNEMONIC } from '../anvil';
import { requiredFee } from './cosmos-ante';
import { CosmosChain } from './cosmos-chain';
import { COSMOS_DEVNET_CHAINS } from './cosmos-chain-spec';
import { acceptFee } from './cosmos-feegrant';
import { cosmosDevnetKey } from './cosmos-keys';

const hub = COSMOS_DEVNET_CHAINS[0];
const registry = new Registry(defaultRegistryTypes);

// cosmjs derives an HD wallet from the mnemonic with PBKDF2 in JavaScript (2,048 rounds of
// HMAC-SHA512): about a second each on an idle core, several on a loaded CI machine, and a test
// here signs with up to two. Jest's 5 s default is not a bound on the code under test.
jest.setTimeout(60_000);

/** A MsgSend signed in SIGN_MODE_DIRECT by test wallet `index`, as cosmjs's SigningStargateClient builds it. */
async function signedSend(index: number, sequence: number, gas: number, feeAmount: string, to: string) {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, {
    hdPaths: [makeCosmoshubPath(index)],
  });
  const [account] = await wallet.getAccounts();
  const bodyBytes = registry.encodeTxBody({
    messages: [
      {
        typeUrl: '/cosmos.bank.v1beta1.MsgSend',
        value: { fromAddress: account.address, toAddress: to, amount: [{ denom: 'uatom', amount: '5' }] },
      },
    ],
    memo: '',
  });
  const pubkey = {
    typeUrl: '/cosmos.crypto.secp256k1.PubKey',
    value: Uint8Array.from([10, 33, ...account.pubkey]),
  };
  const authInfoBytes = makeAuthInfoBytes(
    [{ pubkey, sequence }],
    [{ denom: 'uatom', amount: feeAmount }],
    gas,
    undefined,
    undefined,
  );
  const { signed, signature } = await wallet.signDirect(
    account.address,
    makeSignDoc(bodyBytes, authInfoBytes, hub.id, index - 1),
  );
  return TxRaw.encode({
    bodyBytes: signed.bodyBytes,
    authInfoBytes: signed.authInfoBytes,
    signatures: [Buffer.from(signature.signature, 'base64')],
  }).finish();
}

describe('CosmosChain', () => {
  function fundedChain() {
    const chain = new CosmosChain(hub);
    for (const index of [1, 2])
      chain.fund(cosmosDevnetKey('cosmos', index).address, [{ denom: 'uatom', amount: 1_000_000n }]);
    chain.produceBlock();
    return chain;
  }

  it("derives the test wallets as cosmjs does (m/44'/118'/0'/0/i)", async () => {
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, {
      hdPaths: [makeCosmoshubPath(3)],
    });
    const [account] = await wallet.getAccounts();
    expect(cosmosDevnetKey('cosmos', 3).address).toBe(account.address);
  });

  it('charges a tx the same gas in simulate and in its block', async () => {
    const chain = fundedChain();
    const to = cosmosDevnetKey('cosmos', 2).address;
    const raw = await signedSend(1, 0, 100_000, '500', to);
    const simulated = chain.simulate(raw);
    expect(chain.checkTx(raw)).toMatchObject({ code: 0 });
    chain.produceBlock();
    const delivered = chain.includedTxs()[0];
    expect(delivered.result.code).toBe(0);
    expect(delivered.result.gasUsed).toBe(simulated.gasUsed);
    expect(delivered.hash).toMatch(/^[0-9A-F]{64}$/);
    expect(chain.queryState.balance(to, 'uatom')).toBe(1_000_005n);
  });

  it('counts a second tx of one account against the check state before the block', async () => {
    const chain = fundedChain();
    const to = cosmosDevnetKey('cosmos', 2).address;
    expect(chain.checkTx(await signedSend(1, 0, 100_000, '500', to)).code).toBe(0);
    expect(chain.checkTx(await signedSend(1, 1, 100_000, '500', to)).code).toBe(0);
    expect(chain.checkTx(await signedSend(1, 1, 100_000, '501', to))).toMatchObject({
      code: 32,
      log: 'account sequence mismatch, expected 2, got 1: incorrect account sequence',
    });
    chain.produceBlock();
    expect(chain.queryState.account(cosmosDevnetKey('cosmos', 1).address)?.sequence).toBe(2n);
  });

  it('answers garbage with code 2 and never throws', () => {
    const chain = fundedChain();
    expect(chain.checkTx(Uint8Array.from([1, 2, 3]))).toMatchObject({ code: 2, codespace: 'sdk' });
    expect(chain.simulate(new Uint8Array())).toMatchObject({ code: 18 });
  });

  it('rounds the minimum fee up, exactly', () => {
    expect(requiredFee(hub, 200_000n)).toEqual({ denom: 'uatom', amount: 1000n });
    expect(requiredFee(hub, 200_001n)).toEqual({ denom: 'uatom', amount: 1001n });
    expect(requiredFee(COSMOS_DEVNET_CHAINS[1], 1n)).toEqual({ denom: 'uosmo', amount: 1n });
  });

  it('spends a periodic allowance per period and within its basic limit', () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    const periodic = {
      kind: 'periodic' as const,
      basic: { spendLimit: [{ denom: 'uatom', amount: 1000n }] },
      periodSeconds: 60n,
      periodSpendLimit: [{ denom: 'uatom', amount: 300n }],
      periodCanSpend: [{ denom: 'uatom', amount: 300n }],
      periodReset: new Date(t0.getTime() + 60_000),
    };
    const after = acceptFee(periodic, [{ denom: 'uatom', amount: 200n }], t0);
    expect(after).toMatchObject({
      periodCanSpend: [{ denom: 'uatom', amount: 100n }],
      basic: { spendLimit: [{ denom: 'uatom', amount: 800n }] },
    });
    expect(() => acceptFee(after!, [{ denom: 'uatom', amount: 200n }], t0)).toThrow(
      'period limit: fee limit exceeded',
    );
    const nextPeriod = acceptFee(after!, [{ denom: 'uatom', amount: 200n }], new Date(t0.getTime() + 61_000));
    expect(nextPeriod).toMatchObject({ periodCanSpend: [{ denom: 'uatom', amount: 100n }] });
    expect(() =>
      acceptFee({ kind: 'basic', spendLimit: [], expiration: t0 }, [], new Date(t0.getTime() + 1)),
    ).toThrow('absolute limit: fee allowance expired');
  });
});
