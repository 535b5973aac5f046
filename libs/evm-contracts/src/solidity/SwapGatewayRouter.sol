// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {ISignatureTransfer} from "./Permit2.sol";

interface IUniswapV2RouterExactIn {
    function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        returns (uint256[] memory amounts);

    function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        returns (uint256[] memory amounts);
}

interface IDevnetBridgeDeposits {
    function token() external view returns (address);

    function deposit(uint256 amount, uint256 destinationChainId, address recipient) external returns (uint256 nonce);

    function depositTo(uint256 amount, uint256 destinationChainId, bytes32 recipient) external returns (uint256 nonce);

    function depositWithMessage(uint256 amount, uint256 destinationChainId, address recipient, bytes calldata message)
        external
        returns (uint256 nonce);
}

/// The permit-aware adapter in front of one chain's Uniswap V2 Router02 and devnet bridge: the user
/// calls it once, it pulls the input with the user's permit (EIP-2612 on the token, or a Permit2
/// PermitTransferFrom naming this contract as spender) and performs the leg in the same
/// transaction, so there is no approval step. Router, bridge and Permit2 are fixed at deployment and
/// there is no arbitrary-call entry point: the tokens it pulls can only go into that leg, for the
/// recipient the caller names. It keeps no tokens between calls (checked after each leg).
///
/// Sponsored ("gasless") legs: swapWithIntent, bridgeWithIntent and bridgeToWithIntent may be sent by
/// anyone (the service's relayer, which pays the gas). The owner signs only a Permit2
/// PermitWitnessTransferFrom whose witness is the whole leg (path, minimum out, recipient, deadline,
/// or destination and recipient); the router hashes the witness itself from the arguments it acts on,
/// so a sender who changes any of them, the amount, the nonce or the owner gets InvalidSigner.
///
/// Across chains, bridgeAndSwapWithIntent runs both legs from the one source-chain signature (witness
/// BridgeSwapIntent): it deposits the bridge token with a message for the destination chain's router
/// (bridge.depositWithMessage); when the bridge relayer releases it there, that router's
/// onBridgeRelease (callable by its bridge only) swaps what arrived along the signed path for at least
/// amountOutMin to the recipient, or, when the swap cannot happen (deadline passed, output below the
/// minimum, a path that does not start with the bridged token), pays the bridged tokens to the
/// recipient instead. BridgeSwapSettled says which. Nothing stays in the router.
contract SwapGatewayRouter is ReentrancyGuard {
    using SafeERC20 for IERC20;

    enum PermitKind {
        EIP2612,
        Permit2
    }

    /// How the caller (the token owner) authorizes this contract to pull the leg's input:
    ///  - EIP2612: the token's permit(owner = caller, spender = this contract, value = the leg's
    ///    amount, deadline); nonce is unused (the token keeps its own);
    ///  - Permit2: a PermitTransferFrom of {token, amount = the leg's amount} with this nonce and
    ///    deadline, spender = this contract.
    /// signature: 65 bytes (r, s, v) or 64 bytes (EIP-2098 r, vs).
    struct Permit {
        PermitKind kind;
        uint256 nonce;
        uint256 deadline;
        bytes signature;
    }

    IUniswapV2RouterExactIn public immutable uniswapV2Router;
    IDevnetBridgeDeposits public immutable bridge;
    IERC20 public immutable bridgeToken;
    ISignatureTransfer public immutable permit2;

    event SwapWithPermit(address indexed user, address indexed tokenIn, address indexed to, uint256 amountIn, uint256 amountOut, PermitKind kind);
    event DepositWithPermit(address indexed user, uint256 indexed bridgeNonce, uint256 destinationChainId, uint256 amount, PermitKind kind);

    /// The leg an owner signs as the Permit2 witness of a sponsored swap (EIP-712 struct SwapIntent).
    struct SwapIntent {
        address[] path;
        uint256 amountOutMin;
        address recipient;
        /// The output is WETH and the recipient gets native ETH (Router02 swapExactTokensForETH).
        bool unwrapNative;
        uint256 deadline;
    }

    /// The bridge deposit an owner signs as the witness of a sponsored deposit to an EVM address.
    struct BridgeIntent {
        uint256 destinationChainId;
        address recipient;
        uint256 deadline;
    }

    /// As BridgeIntent, to a 32-byte recipient (a Solana public key), through the bridge's depositTo.
    struct BridgeToIntent {
        uint256 destinationChainId;
        bytes32 recipient;
        uint256 deadline;
    }

    /// A bridge deposit and the swap on the destination chain, signed together: the destination
    /// router (destinationRouter, on destinationChainId) swaps what the bridge delivers along path for
    /// at least amountOutMin to recipient before deadline, or pays recipient the bridged tokens.
    struct BridgeSwapIntent {
        uint256 destinationChainId;
        address destinationRouter;
        address[] path;
        uint256 amountOutMin;
        address recipient;
        bool unwrapNative;
        uint256 deadline;
    }

    /// The message a bridge-and-swap deposit carries to the destination router (abi.encode of it).
    struct BridgeSwapMessage {
        address owner;
        address[] path;
        uint256 amountOutMin;
        address recipient;
        bool unwrapNative;
        uint256 deadline;
    }

    /// What the destination router did with a bridge-and-swap release.
    enum BridgeSwapOutcome {
        /// Swapped along the path: the recipient got at least amountOutMin of the path's last token.
        Swapped,
        /// The deadline had passed: the recipient got the bridged tokens.
        Expired,
        /// The swap reverted (output below amountOutMin, a path that does not start with the
        /// bridged token, no such pool): the recipient got the bridged tokens.
        SwapFailed
    }

    bytes32 public constant SWAP_INTENT_TYPEHASH =
        keccak256("SwapIntent(address[] path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline)");
    bytes32 public constant BRIDGE_INTENT_TYPEHASH = keccak256("BridgeIntent(uint256 destinationChainId,address recipient,uint256 deadline)");
    bytes32 public constant BRIDGE_TO_INTENT_TYPEHASH =
        keccak256("BridgeToIntent(uint256 destinationChainId,bytes32 recipient,uint256 deadline)");
    bytes32 public constant BRIDGE_SWAP_INTENT_TYPEHASH = keccak256(
        "BridgeSwapIntent(uint256 destinationChainId,address destinationRouter,address[] path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline)"
    );
    /// Permit2 witness type strings: the witness field is named "witness" (as Uniswap's permit2-sdk
    /// and UniswapX name it) and the referenced types follow in alphabetical order, as EIP-712 wants.
    string public constant SWAP_INTENT_WITNESS_TYPE =
        "SwapIntent witness)SwapIntent(address[] path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline)TokenPermissions(address token,uint256 amount)";
    string public constant BRIDGE_INTENT_WITNESS_TYPE =
        "BridgeIntent witness)BridgeIntent(uint256 destinationChainId,address recipient,uint256 deadline)TokenPermissions(address token,uint256 amount)";
    string public constant BRIDGE_TO_INTENT_WITNESS_TYPE =
        "BridgeToIntent witness)BridgeToIntent(uint256 destinationChainId,bytes32 recipient,uint256 deadline)TokenPermissions(address token,uint256 amount)";
    string public constant BRIDGE_SWAP_INTENT_WITNESS_TYPE =
        "BridgeSwapIntent witness)BridgeSwapIntent(uint256 destinationChainId,address destinationRouter,address[] path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline)TokenPermissions(address token,uint256 amount)";

    /// Gas the destination router must have left before it tries a bridge-and-swap's swap: a first
    /// hop, and each further one. A release sent with less reverts (InsufficientGasForSwap) rather
    /// than settling as a failed swap, so an eth_estimateGas of the release always covers the swap.
    uint256 public constant BRIDGE_SWAP_GAS_FIRST_HOP = 220_000;
    uint256 public constant BRIDGE_SWAP_GAS_PER_HOP = 100_000;
    uint256 private constant MAX_PATH_LENGTH = 8;

    /// A sponsored swap: owner's tokens, sent by relayer (who paid the gas), as the owner signed.
    event SwapWithIntent(
        address indexed owner,
        address indexed tokenIn,
        address indexed recipient,
        uint256 amountIn,
        uint256 amountOut,
        uint256 permitNonce,
        address relayer
    );
    /// A sponsored bridge deposit (deposit, depositTo, or depositWithMessage for a bridge-and-swap);
    /// the recipient (and the message) is in the bridge's event.
    event DepositWithIntent(
        address indexed owner,
        uint256 indexed bridgeNonce,
        uint256 destinationChainId,
        uint256 amount,
        uint256 permitNonce,
        address relayer
    );

    /// A bridge-and-swap release on this (destination) chain: the owner's tokens, delivered by the
    /// bridge (amountIn, after its fee), went to recipient as amountOut of tokenOut: the path's last
    /// token (address(0) for native ETH) when swapped, else the bridged token itself.
    event BridgeSwapSettled(
        address indexed owner,
        address indexed recipient,
        address indexed tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        BridgeSwapOutcome outcome
    );

    /// The EIP-2612 permit was refused and no allowance covers the amount (a permit that someone
    /// else submitted first is fine: its allowance is used).
    error PermitRejected(address token);
    error InvalidSignatureLength();
    error InvalidRecipient();
    error TokensLeftBehind(address token, uint256 amount);
    /// The signed intent's deadline has passed.
    error IntentExpired(uint256 deadline);
    /// The permit's token is not the one the leg starts with (path[0], or the bridge's token).
    error TokenMismatch(address permitted, address expected);
    error InvalidPath();
    /// onBridgeRelease called by another than this chain's bridge.
    error NotBridge();
    /// A bridge-and-swap release sent with too little gas to try the swap (see BRIDGE_SWAP_GAS_FIRST_HOP).
    error InsufficientGasForSwap(uint256 needed);

    constructor(IUniswapV2RouterExactIn uniswapV2Router_, IDevnetBridgeDeposits bridge_, ISignatureTransfer permit2_) {
        uniswapV2Router = uniswapV2Router_;
        bridge = bridge_;
        bridgeToken = IERC20(bridge_.token());
        permit2 = permit2_;
    }

    function swapExactTokensForTokensWithPermit(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline,
        Permit calldata permit
    ) external nonReentrant returns (uint256[] memory amounts) {
        return swapWithPermit(false, amountIn, amountOutMin, path, to, deadline, permit);
    }

    function swapExactTokensForETHWithPermit(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline,
        Permit calldata permit
    ) external nonReentrant returns (uint256[] memory amounts) {
        return swapWithPermit(true, amountIn, amountOutMin, path, to, deadline, permit);
    }

    function swapWithPermit(
        bool toETH,
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline,
        Permit calldata permit
    ) private returns (uint256[] memory amounts) {
        if (to == address(this)) revert InvalidRecipient();
        IERC20 tokenIn = IERC20(path[0]);
        uint256 held = pull(tokenIn, amountIn, permit, address(uniswapV2Router));
        amounts = toETH
            ? uniswapV2Router.swapExactTokensForETH(amountIn, amountOutMin, path, to, deadline)
            : uniswapV2Router.swapExactTokensForTokens(amountIn, amountOutMin, path, to, deadline);
        assertNothingLeft(tokenIn, held);
        emit SwapWithPermit(msg.sender, address(tokenIn), to, amountIn, amounts[amounts.length - 1], permit.kind);
    }

    function depositWithPermit(uint256 amount, uint256 destinationChainId, address recipient, Permit calldata permit)
        external
        nonReentrant
        returns (uint256 bridgeNonce)
    {
        if (recipient == address(this)) revert InvalidRecipient();
        uint256 held = pull(bridgeToken, amount, permit, address(bridge));
        bridgeNonce = bridge.deposit(amount, destinationChainId, recipient);
        assertNothingLeft(bridgeToken, held);
        emit DepositWithPermit(msg.sender, bridgeNonce, destinationChainId, amount, permit.kind);
    }

    /// Towards a chain whose addresses are 32 bytes (Solana), as DevnetBridge.depositTo.
    function depositToWithPermit(uint256 amount, uint256 destinationChainId, bytes32 recipient, Permit calldata permit)
        external
        nonReentrant
        returns (uint256 bridgeNonce)
    {
        uint256 held = pull(bridgeToken, amount, permit, address(bridge));
        bridgeNonce = bridge.depositTo(amount, destinationChainId, recipient);
        assertNothingLeft(bridgeToken, held);
        emit DepositWithPermit(msg.sender, bridgeNonce, destinationChainId, amount, permit.kind);
    }

    /// Sponsored swap: pulls exactly permit.permitted.amount of path[0] from owner with owner's
    /// Permit2 witness signature over (permit, this contract, intent) and swaps all of it on
    /// Router02 to intent.recipient. Anyone may send it; only what the owner signed can happen.
    function swapWithIntent(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        SwapIntent calldata intent,
        bytes calldata signature
    ) external nonReentrant returns (uint256 amountOut) {
        if (block.timestamp > intent.deadline) revert IntentExpired(intent.deadline);
        if (intent.recipient == address(0) || intent.recipient == address(this)) revert InvalidRecipient();
        if (intent.path.length < 2) revert InvalidPath();
        if (intent.path[0] != permit.permitted.token) revert TokenMismatch(permit.permitted.token, intent.path[0]);
        IERC20 tokenIn = IERC20(permit.permitted.token);
        uint256 amountIn = permit.permitted.amount;
        uint256 held = pullWithIntent(permit, owner, hashSwapIntent(intent), SWAP_INTENT_WITNESS_TYPE, signature, address(uniswapV2Router));
        uint256[] memory amounts = intent.unwrapNative
            ? uniswapV2Router.swapExactTokensForETH(amountIn, intent.amountOutMin, intent.path, intent.recipient, intent.deadline)
            : uniswapV2Router.swapExactTokensForTokens(amountIn, intent.amountOutMin, intent.path, intent.recipient, intent.deadline);
        assertNothingLeft(tokenIn, held);
        amountOut = amounts[amounts.length - 1];
        emit SwapWithIntent(owner, address(tokenIn), intent.recipient, amountIn, amountOut, permit.nonce, msg.sender);
    }

    /// Sponsored bridge deposit to an EVM address: the whole permitted amount of the bridge token,
    /// to the signed destination chain and recipient.
    function bridgeWithIntent(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        BridgeIntent calldata intent,
        bytes calldata signature
    ) external nonReentrant returns (uint256 bridgeNonce) {
        if (block.timestamp > intent.deadline) revert IntentExpired(intent.deadline);
        if (intent.recipient == address(this)) revert InvalidRecipient();
        bytes32 witness = keccak256(abi.encode(BRIDGE_INTENT_TYPEHASH, intent.destinationChainId, intent.recipient, intent.deadline));
        uint256 held = pullBridgeToken(permit, owner, witness, BRIDGE_INTENT_WITNESS_TYPE, signature);
        bridgeNonce = bridge.deposit(permit.permitted.amount, intent.destinationChainId, intent.recipient);
        assertNothingLeft(bridgeToken, held);
        emit DepositWithIntent(owner, bridgeNonce, intent.destinationChainId, permit.permitted.amount, permit.nonce, msg.sender);
    }

    /// Sponsored bridge deposit to a 32-byte recipient (Solana), as DevnetBridge.depositTo.
    function bridgeToWithIntent(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        BridgeToIntent calldata intent,
        bytes calldata signature
    ) external nonReentrant returns (uint256 bridgeNonce) {
        if (block.timestamp > intent.deadline) revert IntentExpired(intent.deadline);
        bytes32 witness = keccak256(abi.encode(BRIDGE_TO_INTENT_TYPEHASH, intent.destinationChainId, intent.recipient, intent.deadline));
        uint256 held = pullBridgeToken(permit, owner, witness, BRIDGE_TO_INTENT_WITNESS_TYPE, signature);
        bridgeNonce = bridge.depositTo(permit.permitted.amount, intent.destinationChainId, intent.recipient);
        assertNothingLeft(bridgeToken, held);
        emit DepositWithIntent(owner, bridgeNonce, intent.destinationChainId, permit.permitted.amount, permit.nonce, msg.sender);
    }

    /// Sponsored bridge deposit and destination swap, from the one signature on this chain: pulls
    /// the whole permitted amount of the bridge token and deposits it with a message (owner, path,
    /// amountOutMin, recipient, unwrapNative, deadline) to intent.destinationRouter on
    /// intent.destinationChainId, whose onBridgeRelease performs the swap when the bridge releases it.
    function bridgeAndSwapWithIntent(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        BridgeSwapIntent calldata intent,
        bytes calldata signature
    ) external nonReentrant returns (uint256 bridgeNonce) {
        if (block.timestamp > intent.deadline) revert IntentExpired(intent.deadline);
        if (intent.destinationRouter == address(0)) revert InvalidRecipient();
        if (intent.recipient == address(0) || intent.recipient == intent.destinationRouter) revert InvalidRecipient();
        if (intent.path.length < 2 || intent.path.length > MAX_PATH_LENGTH) revert InvalidPath();
        uint256 held = pullBridgeToken(permit, owner, hashBridgeSwapIntent(intent), BRIDGE_SWAP_INTENT_WITNESS_TYPE, signature);
        bridgeNonce = bridge.depositWithMessage(
            permit.permitted.amount,
            intent.destinationChainId,
            intent.destinationRouter,
            bridgeSwapMessage(owner, intent)
        );
        assertNothingLeft(bridgeToken, held);
        emit DepositWithIntent(owner, bridgeNonce, intent.destinationChainId, permit.permitted.amount, permit.nonce, msg.sender);
    }

    /// The destination half of bridgeAndSwapWithIntent, called by this chain's bridge right after
    /// it transferred amount of token here (DevnetBridge.releaseWithMessage). Swaps all of it along
    /// the message's path for at least amountOutMin to the recipient; when that cannot happen, pays
    /// the recipient the bridged tokens. Either way nothing stays here.
    function onBridgeRelease(address token, uint256 amount, bytes calldata message) external nonReentrant {
        if (msg.sender != address(bridge)) revert NotBridge();
        if (token != address(bridgeToken)) revert TokenMismatch(token, address(bridgeToken));
        BridgeSwapMessage memory m = abi.decode(message, (BridgeSwapMessage));
        // Never from bridgeAndSwapWithIntent (it refuses them); a hand-made deposit's release reverts.
        if (m.recipient == address(0) || m.recipient == address(this)) revert InvalidRecipient();
        uint256 held = bridgeToken.balanceOf(address(this)) - amount;
        (BridgeSwapOutcome outcome, address tokenOut, uint256 amountOut) = settleBridgeSwap(amount, m);
        assertNothingLeft(bridgeToken, held);
        emit BridgeSwapSettled(m.owner, m.recipient, tokenOut, amount, amountOut, outcome);
    }

    function settleBridgeSwap(uint256 amount, BridgeSwapMessage memory m)
        private
        returns (BridgeSwapOutcome outcome, address tokenOut, uint256 amountOut)
    {
        if (block.timestamp > m.deadline) return payBridged(amount, m.recipient, BridgeSwapOutcome.Expired);
        uint256 length = m.path.length;
        if (length < 2 || m.path[0] != address(bridgeToken)) return payBridged(amount, m.recipient, BridgeSwapOutcome.SwapFailed);
        // The swap gets 63/64 of what is left: with less than it needs it would fail for want of gas
        // and settle as SwapFailed, so too little gas reverts the release instead.
        uint256 needed = BRIDGE_SWAP_GAS_FIRST_HOP + BRIDGE_SWAP_GAS_PER_HOP * (length - 2);
        if (gasleft() < needed) revert InsufficientGasForSwap(needed);
        bridgeToken.forceApprove(address(uniswapV2Router), amount);
        if (m.unwrapNative) {
            try uniswapV2Router.swapExactTokensForETH(amount, m.amountOutMin, m.path, m.recipient, m.deadline) returns (
                uint256[] memory amounts
            ) {
                return (BridgeSwapOutcome.Swapped, address(0), amounts[amounts.length - 1]);
            } catch {}
        } else {
            try uniswapV2Router.swapExactTokensForTokens(amount, m.amountOutMin, m.path, m.recipient, m.deadline) returns (
                uint256[] memory amounts
            ) {
                return (BridgeSwapOutcome.Swapped, m.path[length - 1], amounts[amounts.length - 1]);
            } catch {}
        }
        bridgeToken.forceApprove(address(uniswapV2Router), 0);
        return payBridged(amount, m.recipient, BridgeSwapOutcome.SwapFailed);
    }

    function payBridged(uint256 amount, address recipient, BridgeSwapOutcome outcome)
        private
        returns (BridgeSwapOutcome, address, uint256)
    {
        bridgeToken.safeTransfer(recipient, amount);
        return (outcome, address(bridgeToken), amount);
    }

    function bridgeSwapMessage(address owner, BridgeSwapIntent calldata intent) private pure returns (bytes memory) {
        return abi.encode(
            BridgeSwapMessage({
                owner: owner,
                path: intent.path,
                amountOutMin: intent.amountOutMin,
                recipient: intent.recipient,
                unwrapNative: intent.unwrapNative,
                deadline: intent.deadline
            })
        );
    }

    /// EIP-712 hashStruct of a BridgeSwapIntent (path and bool as in hashSwapIntent).
    function hashBridgeSwapIntent(BridgeSwapIntent calldata intent) private pure returns (bytes32) {
        return keccak256(
            abi.encode(
                BRIDGE_SWAP_INTENT_TYPEHASH,
                intent.destinationChainId,
                intent.destinationRouter,
                keccak256(abi.encodePacked(intent.path)),
                intent.amountOutMin,
                intent.recipient,
                intent.unwrapNative,
                intent.deadline
            )
        );
    }

    /// EIP-712 hashStruct of a SwapIntent: the address[] is the keccak of its 32-byte-padded
    /// elements (abi.encodePacked pads array elements), the bool a uint256 0 or 1.
    function hashSwapIntent(SwapIntent calldata intent) private pure returns (bytes32) {
        return keccak256(
            abi.encode(
                SWAP_INTENT_TYPEHASH,
                keccak256(abi.encodePacked(intent.path)),
                intent.amountOutMin,
                intent.recipient,
                intent.unwrapNative,
                intent.deadline
            )
        );
    }

    function pullBridgeToken(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        bytes32 witness,
        string memory witnessTypeString,
        bytes calldata signature
    ) private returns (uint256 held) {
        if (permit.permitted.token != address(bridgeToken)) revert TokenMismatch(permit.permitted.token, address(bridgeToken));
        return pullWithIntent(permit, owner, witness, witnessTypeString, signature, address(bridge));
    }

    /// Pulls exactly permit.permitted.amount from owner through Permit2 (spender: this contract,
    /// witness: the leg) and lets target take exactly that. Returns the balance held before.
    function pullWithIntent(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        bytes32 witness,
        string memory witnessTypeString,
        bytes calldata signature,
        address target
    ) private returns (uint256 held) {
        IERC20 token = IERC20(permit.permitted.token);
        held = token.balanceOf(address(this));
        permit2.permitWitnessTransferFrom(
            permit,
            ISignatureTransfer.SignatureTransferDetails({to: address(this), requestedAmount: permit.permitted.amount}),
            owner,
            witness,
            witnessTypeString,
            signature
        );
        token.forceApprove(target, permit.permitted.amount);
    }

    /// Pulls amount of token from the caller with the permit and lets target take exactly that.
    /// Returns this contract's balance before the pull (tokens someone sent here by mistake).
    function pull(IERC20 token, uint256 amount, Permit calldata permit, address target) private returns (uint256 held) {
        held = token.balanceOf(address(this));
        if (permit.kind == PermitKind.EIP2612) {
            (uint8 v, bytes32 r, bytes32 s) = splitSignature(permit.signature);
            // A permit is public once in the mempool and anyone may submit it first; that must not
            // brick the swap, so a refused permit is fine as long as the allowance is there.
            try IERC20Permit(address(token)).permit(msg.sender, address(this), amount, permit.deadline, v, r, s) {} catch {
                if (token.allowance(msg.sender, address(this)) < amount) revert PermitRejected(address(token));
            }
            token.safeTransferFrom(msg.sender, address(this), amount);
        } else {
            permit2.permitTransferFrom(
                ISignatureTransfer.PermitTransferFrom({
                    permitted: ISignatureTransfer.TokenPermissions({token: address(token), amount: amount}),
                    nonce: permit.nonce,
                    deadline: permit.deadline
                }),
                ISignatureTransfer.SignatureTransferDetails({to: address(this), requestedAmount: amount}),
                msg.sender,
                permit.signature
            );
        }
        token.forceApprove(target, amount);
    }

    /// The leg must have taken everything it was given: nothing of the caller's stays here.
    function assertNothingLeft(IERC20 token, uint256 held) private view {
        uint256 balance = token.balanceOf(address(this));
        if (balance > held) revert TokensLeftBehind(address(token), balance - held);
    }

    function splitSignature(bytes calldata signature) private pure returns (uint8 v, bytes32 r, bytes32 s) {
        if (signature.length == 65) {
            r = bytes32(signature[0:32]);
            s = bytes32(signature[32:64]);
            v = uint8(signature[64]);
        } else if (signature.length == 64) {
            r = bytes32(signature[0:32]);
            bytes32 vs = bytes32(signature[32:64]);
            s = vs & 0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;
            v = uint8(uint256(vs >> 255)) + 27;
        } else {
            revert InvalidSignatureLength();
        }
    }
}
