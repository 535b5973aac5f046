import { Keypair, PublicKey, SystemInstruction, SystemProgram } from '@solana/web3.js';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  decodeTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { solanaFeeAccountsOf, solanaIntegratorFeeInstructions } from './solana-integrator-fees';

const key = (seed: number) => Keypair.fromSeed(Buffer.alloc(32, seed)).publicKey;
const OWNER = key(1);
const FEE_PAYER = key(2);
const MINT = key(3);
const ALICE = key(4);
const BOB = key(5);
const USDC = { mint: MINT, decimals: 6 };
const ata = (owner: PublicKey) => getAssociatedTokenAddressSync(MINT, owner, true);
const fees = [
  { recipient: ALICE.toBase58(), amount: 100_000n },
  { recipient: BOB.toBase58(), amount: 7n },
];

describe('solanaIntegratorFeeInstructions', () => {
  it('SPL: a TransferChecked of each amount from the owner’s token account to each recipient’s', () => {
    const instructions = solanaIntegratorFeeInstructions({
      owner: OWNER,
      feePayer: FEE_PAYER,
      token: USDC,
      fees,
    });
    expect(instructions).toHaveLength(2);
    const transfers = instructions.map((ix) => decodeTransferCheckedInstruction(ix, TOKEN_PROGRAM_ID));
    expect(
      transfers.map(({ keys, data }) => ({
        source: keys.source.pubkey.toBase58(),
        mint: keys.mint.pubkey.toBase58(),
        destination: keys.destination.pubkey.toBase58(),
        authority: keys.owner.pubkey.toBase58(),
        authoritySigns: keys.owner.isSigner,
        amount: data.amount,
        decimals: data.decimals,
      })),
    ).toEqual([
      {
        source: ata(OWNER).toBase58(),
        mint: MINT.toBase58(),
        destination: ata(ALICE).toBase58(),
        authority: OWNER.toBase58(),
        authoritySigns: true,
        amount: 100_000n,
        decimals: 6,
      },
      {
        source: ata(OWNER).toBase58(),
        mint: MINT.toBase58(),
        destination: ata(BOB).toBase58(),
        authority: OWNER.toBase58(),
        authoritySigns: true,
        amount: 7n,
        decimals: 6,
      },
    ]);
  });

  it('SPL: creates a missing recipient account first, idempotently, funded by the fee payer (never the owner)', () => {
    const instructions = solanaIntegratorFeeInstructions({
      owner: OWNER,
      feePayer: FEE_PAYER,
      token: USDC,
      fees,
      missingAccounts: new Set([ata(BOB).toBase58()]),
    });
    expect(instructions.map((ix) => ix.programId.toBase58())).toEqual([
      TOKEN_PROGRAM_ID.toBase58(),
      ASSOCIATED_TOKEN_PROGRAM_ID.toBase58(),
      TOKEN_PROGRAM_ID.toBase58(),
    ]);
    const create = instructions[1];
    expect(Array.from(create.data)).toEqual([1]); // CreateIdempotent: an account created meanwhile is no failure
    expect(create.keys.map((k) => k.pubkey.toBase58())).toEqual([
      FEE_PAYER.toBase58(), // pays the rent
      ata(BOB).toBase58(),
      BOB.toBase58(),
      MINT.toBase58(),
      SystemProgram.programId.toBase58(),
      TOKEN_PROGRAM_ID.toBase58(),
    ]);
    expect(create.keys[0].isSigner).toBe(true);
    expect(create.keys.some((k) => k.pubkey.equals(OWNER))).toBe(false);
  });

  it('native SOL: a System Program transfer of the lamports from the owner to the recipient itself', () => {
    const [ix] = solanaIntegratorFeeInstructions({
      owner: OWNER,
      feePayer: FEE_PAYER,
      token: null,
      fees: [fees[0]],
    });
    expect(SystemInstruction.decodeTransfer(ix)).toEqual({
      fromPubkey: OWNER,
      toPubkey: ALICE,
      lamports: 100_000n,
    });
    expect(solanaFeeAccountsOf(null, fees)).toEqual([ALICE, BOB]);
  });

  it('leaves out a fee of 0 and accepts an off-curve recipient (a program’s vault)', () => {
    const vault = PublicKey.findProgramAddressSync([Buffer.from('vault')], TOKEN_PROGRAM_ID)[0];
    const instructions = solanaIntegratorFeeInstructions({
      owner: OWNER,
      feePayer: FEE_PAYER,
      token: USDC,
      fees: [
        { recipient: ALICE.toBase58(), amount: 0n },
        { recipient: vault.toBase58(), amount: 5n },
      ],
    });
    expect(instructions).toHaveLength(1);
    expect(decodeTransferCheckedInstruction(instructions[0]).keys.destination.pubkey).toEqual(ata(vault));
  });
});
