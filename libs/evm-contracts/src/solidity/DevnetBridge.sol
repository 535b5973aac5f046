// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// A contract that receives releases carrying a message (the recipient of depositWithMessage).
interface IBridgeMessageRecipient {
    /// Called by the bridge right after it transferred amount of token to this contract.
    function onBridgeRelease(address token, uint256 amount, bytes calldata message) external;
}

/// Lock-and-release bridge for one token between devnet chains. A deposit locks the full amount
/// here and announces the amount after fee; the relayer releases that amount on the destination
/// from the destination bridge's liquidity. Releases are idempotent per (source chain, nonce) so a
/// relayer that retries or restarts never pays twice.
///
/// A deposit may carry a message for a contract recipient (as Across messages do):
/// depositWithMessage announces it, and the relayer's releaseWithMessage pays the recipient and
/// calls its onBridgeRelease(token, amount, message) in the same transaction; a handler that
/// reverts reverts the release (nothing is recorded as released, the relayer may try again).
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
    /// A deposit for a contract recipient whose onBridgeRelease gets message on the destination.
    event DepositWithMessage(
        uint256 indexed nonce,
        address indexed sender,
        address indexed recipient,
        uint256 destinationChainId,
        uint256 amount,
        uint256 amountAfterFee,
        bytes message
    );
    event Release(uint256 indexed sourceChainId, uint256 indexed nonce, address indexed recipient, uint256 amount);
    /// A release of a DepositWithMessage: paid to recipient, whose handler got the message (hashed here).
    event ReleaseWithMessage(
        uint256 indexed sourceChainId,
        uint256 indexed nonce,
        address indexed recipient,
        uint256 amount,
        bytes32 messageHash
    );

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

    /// Same as deposit, for a contract recipient that gets message through onBridgeRelease when
    /// the relayer releases it (releaseWithMessage). Shares the nonce sequence with deposit.
    function depositWithMessage(uint256 amount, uint256 destinationChainId, address recipient, bytes calldata message)
        external
        returns (uint256 nonce)
    {
        if (recipient == address(0)) revert InvalidDeposit("recipient is zero");
        if (message.length == 0) revert InvalidDeposit("message is empty");
        uint256 amountAfterFee;
        (nonce, amountAfterFee) = _lock(amount, destinationChainId);
        emit DepositWithMessage(nonce, msg.sender, recipient, destinationChainId, amount, amountAfterFee, message);
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

    /// Releases a DepositWithMessage: pays amount to recipient, then calls its
    /// onBridgeRelease(token, amount, message). Returns false, paying and calling nothing, when this
    /// deposit was already released (by either release function). A handler that reverts reverts it all.
    function releaseWithMessage(uint256 sourceChainId, uint256 nonce, address recipient, uint256 amount, bytes calldata message)
        external
        returns (bool)
    {
        if (msg.sender != relayer) revert NotRelayer();
        if (released[sourceChainId][nonce]) return false;
        released[sourceChainId][nonce] = true;
        token.safeTransfer(recipient, amount);
        IBridgeMessageRecipient(recipient).onBridgeRelease(address(token), amount, message);
        emit ReleaseWithMessage(sourceChainId, nonce, recipient, amount, keccak256(message));
        return true;
    }

    function quote(uint256 amount) external view returns (uint256 amountAfterFee) {
        return amount - (amount * feeBps) / 10000;
    }
}
