// Solidity sources of the devnet's own contracts, kept as TypeScript strings so the swc build
// (which copies only .ts and .json) ships them without an extra asset step.

/** ERC-20 with EIP-2612 permit and configurable decimals; the deployer mints devnet balances. */
export const DEVNET_TOKEN_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

contract DevnetToken is ERC20, ERC20Permit, Ownable {
    uint8 private immutable _decimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_)
        ERC20(name_, symbol_)
        ERC20Permit(name_)
        Ownable(msg.sender)
    {
        _decimals = decimals_;
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}
`;

/**
 * Lock-and-release bridge for one token between devnet chains. A deposit locks the full amount
 * here and announces the amount after fee; the relayer releases that amount on the destination
 * from the destination bridge's liquidity. Releases are idempotent per (source chain, nonce) so a
 * relayer that retries or restarts never pays twice.
 */
export const DEVNET_BRIDGE_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

contract DevnetBridge {
    using SafeERC20 for IERC20;

    IERC20 public immutable token;
    address public immutable relayer;
    uint16 public immutable feeBps;
    uint256 public nextNonce;
    mapping(uint256 => mapping(uint256 => bool)) public released;

    event Deposit(
        uint256 indexed nonce,
        address indexed sender,
        address indexed recipient,
        uint256 destinationChainId,
        uint256 amount,
        uint256 amountAfterFee
    );
    /// A deposit to a chain whose addresses are not EVM addresses (Solana: the 32-byte public key).
    event DepositTo(
        uint256 indexed nonce,
        address indexed sender,
        bytes32 indexed recipient,
        uint256 destinationChainId,
        uint256 amount,
        uint256 amountAfterFee
    );
    event Release(uint256 indexed sourceChainId, uint256 indexed nonce, address indexed recipient, uint256 amount);

    error NotRelayer();
    error InvalidDeposit(string reason);

    constructor(IERC20 token_, address relayer_, uint16 feeBps_) {
        require(feeBps_ < 10000, "fee too high");
        token = token_;
        relayer = relayer_;
        feeBps = feeBps_;
    }

    function deposit(uint256 amount, uint256 destinationChainId, address recipient) external returns (uint256 nonce) {
        if (recipient == address(0)) revert InvalidDeposit("recipient is zero");
        uint256 amountAfterFee;
        (nonce, amountAfterFee) = _lock(amount, destinationChainId);
        emit Deposit(nonce, msg.sender, recipient, destinationChainId, amount, amountAfterFee);
    }

    /// Same as deposit, for a recipient that is 32 bytes (a Solana public key). Shares the nonce
    /// sequence with deposit, so (this chain, nonce) names one transfer whichever was called.
    function depositTo(uint256 amount, uint256 destinationChainId, bytes32 recipient) external returns (uint256 nonce) {
        if (recipient == bytes32(0)) revert InvalidDeposit("recipient is zero");
        uint256 amountAfterFee;
        (nonce, amountAfterFee) = _lock(amount, destinationChainId);
        emit DepositTo(nonce, msg.sender, recipient, destinationChainId, amount, amountAfterFee);
    }

    function _lock(uint256 amount, uint256 destinationChainId) private returns (uint256 nonce, uint256 amountAfterFee) {
        if (amount == 0) revert InvalidDeposit("amount is zero");
        if (destinationChainId == block.chainid) revert InvalidDeposit("destination is this chain");
        amountAfterFee = amount - (amount * feeBps) / 10000;
        if (amountAfterFee == 0) revert InvalidDeposit("amount below fee");
        nonce = nextNonce++;
        token.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// Returns false, paying nothing, when this deposit was already released.
    function release(uint256 sourceChainId, uint256 nonce, address recipient, uint256 amount) external returns (bool) {
        if (msg.sender != relayer) revert NotRelayer();
        if (released[sourceChainId][nonce]) return false;
        released[sourceChainId][nonce] = true;
        token.safeTransfer(recipient, amount);
        emit Release(sourceChainId, nonce, recipient, amount);
        return true;
    }

    function quote(uint256 amount) external view returns (uint256 amountAfterFee) {
        return amount - (amount * feeBps) / 10000;
    }
}
`;
