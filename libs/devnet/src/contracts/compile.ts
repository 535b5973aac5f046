// Our Solidity compiles in @swapgw/evm-contracts; the published artifacts the devnet and the
// replica load (Uniswap, Across) share its CompiledContract shape and its cache root.
export { repositoryRoot } from '@swapgw/evm-contracts';
export type { CompiledContract } from '@swapgw/evm-contracts';
