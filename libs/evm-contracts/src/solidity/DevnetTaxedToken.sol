// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// A fee-on-transfer ERC-20 as taxed tokens on real chains are built: a transfer out of one of its
/// pools (a buy) pays `buyTaxBps` of the amount to `treasury`, a transfer into one (a sell)
/// `sellTaxBps`; other transfers are untaxed. A transfer to a blocked address reverts (a blacklist).
/// The devnet deploys it so quote-service's tax detection has something real to find.
contract DevnetTaxedToken is ERC20, Ownable {
    uint16 public immutable buyTaxBps;
    uint16 public immutable sellTaxBps;
    address public immutable treasury;
    mapping(address => bool) public isPool;
    mapping(address => bool) public blocked;

    error TransferRestricted(address to);

    constructor(string memory name_, string memory symbol_, uint16 buyTaxBps_, uint16 sellTaxBps_, address treasury_)
        ERC20(name_, symbol_)
        Ownable(msg.sender)
    {
        require(buyTaxBps_ <= 5000 && sellTaxBps_ <= 5000, "tax above 50%");
        buyTaxBps = buyTaxBps_;
        sellTaxBps = sellTaxBps_;
        treasury = treasury_;
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// Taxes transfers from and to `pool` (set after seeding it, so the seed is not taxed).
    function setPool(address pool, bool taxed) external onlyOwner {
        isPool[pool] = taxed;
    }

    function setBlocked(address account, bool isBlocked) external onlyOwner {
        blocked[account] = isBlocked;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (blocked[to]) revert TransferRestricted(to);
        uint256 tax;
        if (from != address(0) && to != address(0)) {
            if (isPool[from]) tax = (value * buyTaxBps) / 10_000;
            else if (isPool[to]) tax = (value * sellTaxBps) / 10_000;
        }
        if (tax > 0) super._update(from, treasury, tax);
        super._update(from, to, value - tax);
    }
}
