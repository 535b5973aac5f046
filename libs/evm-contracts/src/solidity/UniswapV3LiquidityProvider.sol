// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

interface IUniswapV3PoolMint {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);
}

/// Adds liquidity to a Uniswap V3 pool without the NonfungiblePositionManager: the pool's `mint`
/// calls back `uniswapV3MintCallback`, which pulls what the pool is owed from the caller (who
/// approved this contract). The position belongs to the caller. Only the pool being minted may call
/// back, so an approval to this contract cannot be drained by a third party.
contract UniswapV3LiquidityProvider {
    using SafeERC20 for IERC20;

    /// The pool whose mint is in progress: the only address the callback accepts.
    address private minting;

    error UnexpectedCallback(address caller);

    function mint(address pool, int24 tickLower, int24 tickUpper, uint128 liquidity)
        external
        returns (uint256 amount0, uint256 amount1)
    {
        minting = pool;
        (amount0, amount1) = IUniswapV3PoolMint(pool).mint(msg.sender, tickLower, tickUpper, liquidity, abi.encode(msg.sender));
        minting = address(0);
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external {
        if (msg.sender != minting || minting == address(0)) revert UnexpectedCallback(msg.sender);
        address payer = abi.decode(data, (address));
        IUniswapV3PoolMint pool = IUniswapV3PoolMint(msg.sender);
        if (amount0Owed > 0) IERC20(pool.token0()).safeTransferFrom(payer, msg.sender, amount0Owed);
        if (amount1Owed > 0) IERC20(pool.token1()).safeTransferFrom(payer, msg.sender, amount1Owed);
    }
}
