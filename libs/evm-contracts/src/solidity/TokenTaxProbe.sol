// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IProbeErc20 {
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
}

interface IProbePair {
    function token0() external view returns (address);
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

interface IProbeRouter {
    function swapExactETHForTokens(uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        payable
        returns (uint256[] memory amounts);
}

interface IProbeWeth {
    function deposit() external payable;
}

/// Never deployed: quote-service runs its runtime code with `eth_call` at an unused address given a
/// balance by a state override, as honeypot scanners do. It buys `token` from its Uniswap V2 `pair`
/// against `base` (bought first with ETH: wrapped, or through Router02 from WETH), compares what
/// arrived with what the pair sent (the buy tax), sends a tenth to `recipient` (a transfer to the
/// user), and sells the rest back into the pair, comparing what the pair received with what was
/// sent (the sell tax). Each stage that reverts is reported, not propagated.
contract TokenTaxProbe {
    struct Probe {
        bool bought;
        uint256 buyExpected;
        uint256 buyReceived;
        bool transferred;
        bool sold;
        uint256 sellSent;
        uint256 sellArrived;
    }

    function probe(
        address router,
        address weth,
        address base,
        address pair,
        address token,
        address recipient,
        uint256 ethIn
    ) external returns (Probe memory result) {
        uint256 baseAmount = acquireBase(router, weth, base, ethIn);
        bool tokenIs0 = IProbePair(pair).token0() == token;
        (result.bought, result.buyExpected, result.buyReceived) = buy(base, pair, token, tokenIs0, baseAmount);
        if (!result.bought) return result;
        result.transferred = transferOk(token, recipient, result.buyReceived / 10);
        (result.sold, result.sellSent, result.sellArrived) = sell(pair, token, tokenIs0);
    }

    function acquireBase(address router, address weth, address base, uint256 ethIn) private returns (uint256) {
        if (base == weth) {
            IProbeWeth(weth).deposit{value: ethIn}();
        } else {
            address[] memory path = new address[](2);
            path[0] = weth;
            path[1] = base;
            IProbeRouter(router).swapExactETHForTokens{value: ethIn}(0, path, address(this), block.timestamp);
        }
        return IProbeErc20(base).balanceOf(address(this));
    }

    function buy(address base, address pair, address token, bool tokenIs0, uint256 baseAmount)
        private
        returns (bool bought, uint256 expected, uint256 received)
    {
        (uint256 reserveBase, uint256 reserveToken) = reservesOf(pair, tokenIs0);
        if (!transferOk(base, pair, baseAmount)) return (false, 0, 0);
        expected = amountOut(IProbeErc20(base).balanceOf(pair) - reserveBase, reserveBase, reserveToken);
        uint256 before = IProbeErc20(token).balanceOf(address(this));
        try IProbePair(pair).swap(tokenIs0 ? expected : 0, tokenIs0 ? 0 : expected, address(this), "") {
            bought = true;
        } catch {
            return (false, expected, 0);
        }
        received = IProbeErc20(token).balanceOf(address(this)) - before;
    }

    function sell(address pair, address token, bool tokenIs0)
        private
        returns (bool sold, uint256 sent, uint256 arrived)
    {
        sent = IProbeErc20(token).balanceOf(address(this));
        (uint256 reserveBase, uint256 reserveToken) = reservesOf(pair, tokenIs0);
        uint256 pairBefore = IProbeErc20(token).balanceOf(pair);
        if (!transferOk(token, pair, sent)) return (false, 0, 0);
        arrived = IProbeErc20(token).balanceOf(pair) - pairBefore;
        uint256 baseOut = amountOut(arrived, reserveToken, reserveBase);
        try IProbePair(pair).swap(tokenIs0 ? 0 : baseOut, tokenIs0 ? baseOut : 0, address(this), "") {
            sold = true;
        } catch {}
    }

    function reservesOf(address pair, bool tokenIs0) private view returns (uint256 reserveBase, uint256 reserveToken) {
        (uint112 reserve0, uint112 reserve1,) = IProbePair(pair).getReserves();
        return tokenIs0 ? (uint256(reserve1), uint256(reserve0)) : (uint256(reserve0), uint256(reserve1));
    }

    /// Uniswap V2's getAmountOut (0.3% pool fee).
    function amountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) private pure returns (uint256) {
        uint256 withFee = amountIn * 997;
        return (withFee * reserveOut) / (reserveIn * 1000 + withFee);
    }

    /// An ERC-20 transfer that reverts or answers false reads as failed (tokens without a return value pass).
    function transferOk(address token, address to, uint256 amount) private returns (bool) {
        (bool ok, bytes memory data) = token.call(abi.encodeCall(IProbeErc20.transfer, (to, amount)));
        return ok && (data.length == 0 || abi.decode(data, (bool)));
    }
}
