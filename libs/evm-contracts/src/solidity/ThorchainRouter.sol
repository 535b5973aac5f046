// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * The devnet's THORChain router: THORChain_Router's surface (its v4 ABI) that a deposit into
 * THORChain and a refund out of it use, written here (THORChain's published source is not
 * available offline): `depositWithExpiry(vault, asset, amount, memo, expiration)` reverts once
 * `block.timestamp` reaches `expiration`; native ETH (asset 0) goes to the vault as the call's value,
 * an ERC-20 is pulled into the router and credited to the vault's allowance, and either emits
 * `Deposit(vault, asset, amount, memo)`, the event THORChain's bifrost observes. The vault pays out
 * of its allowance with `transferOut` (THORChain's refunds and outbounds on EVM chains), emitting
 * `TransferOut`. No aggregator calls, no vault rotation (`transferAllowance`), no batch outs.
 */
contract ThorchainRouter {
    event Deposit(address indexed to, address indexed asset, uint256 amount, string memo);
    event TransferOut(address indexed vault, address indexed to, address asset, uint256 amount, string memo);

    mapping(address => mapping(address => uint256)) private _vaultAllowance;
    uint256 private _entered;

    modifier nonReentrant() {
        require(_entered == 0, "ThorchainRouter: reentrant");
        _entered = 1;
        _;
        _entered = 0;
    }

    function vaultAllowance(address vault, address token) external view returns (uint256) {
        return _vaultAllowance[vault][token];
    }

    function depositWithExpiry(
        address payable vault,
        address asset,
        uint256 amount,
        string calldata memo,
        uint256 expiration
    ) external payable {
        require(block.timestamp < expiration, "THORChain_Router: expired");
        _deposit(vault, asset, amount, memo);
    }

    function deposit(address payable vault, address asset, uint256 amount, string calldata memo) external payable {
        _deposit(vault, asset, amount, memo);
    }

    function _deposit(
        address payable vault,
        address asset,
        uint256 amount,
        string calldata memo
    ) private nonReentrant {
        uint256 safeAmount;
        if (asset == address(0)) {
            safeAmount = msg.value;
            (bool sent, ) = vault.call{value: safeAmount}("");
            require(sent, "ThorchainRouter: vault refused ETH");
        } else {
            require(msg.value == 0, "THORChain_Router: unexpected eth");
            uint256 before = _balanceOf(asset);
            (bool ok, bytes memory data) = asset.call(
                abi.encodeWithSignature("transferFrom(address,address,uint256)", msg.sender, address(this), amount)
            );
            require(ok && (data.length == 0 || abi.decode(data, (bool))), "THORChain_Router: transferFrom failed");
            safeAmount = _balanceOf(asset) - before;
            _vaultAllowance[vault][asset] += safeAmount;
        }
        emit Deposit(vault, asset, safeAmount, memo);
    }

    function transferOut(
        address payable to,
        address asset,
        uint256 amount,
        string calldata memo
    ) external payable nonReentrant {
        uint256 safeAmount;
        if (asset == address(0)) {
            safeAmount = msg.value;
            (bool sent, ) = to.call{value: safeAmount}("");
            if (!sent) {
                (bool back, ) = payable(msg.sender).call{value: safeAmount}("");
                require(back, "ThorchainRouter: ETH returned to the vault failed");
            }
        } else {
            _vaultAllowance[msg.sender][asset] -= amount;
            (bool ok, bytes memory data) = asset.call(abi.encodeWithSignature("transfer(address,uint256)", to, amount));
            require(ok && (data.length == 0 || abi.decode(data, (bool))), "THORChain_Router: transfer failed");
            safeAmount = amount;
        }
        emit TransferOut(msg.sender, to, asset, safeAmount, memo);
    }

    function _balanceOf(address token) private view returns (uint256) {
        (bool ok, bytes memory data) = token.staticcall(abi.encodeWithSignature("balanceOf(address)", address(this)));
        require(ok && data.length >= 32, "THORChain_Router: balanceOf failed");
        return abi.decode(data, (uint256));
    }
}
