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

    function swapExactETHForTokens(uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        payable
        returns (uint256[] memory amounts);

    function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        returns (uint256[] memory amounts);

    // The fee-on-transfer variants: they price the input by what the pair received and check
    // amountOutMin against what `to` received, so a taxed token swaps whichever side it is on.
    function swapExactTokensForTokensSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external;

    function swapExactETHForTokensSupportingFeeOnTransferTokens(
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external payable;

    function swapExactTokensForETHSupportingFeeOnTransferTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external;
}

/// Uniswap V3 SwapRouter02's exact-input swap (it has no deadline: the router checks the signed one).
interface ISwapRouter02ExactIn {
    struct ExactInputParams {
        bytes path;
        address recipient;
        uint256 amountIn;
        uint256 amountOutMinimum;
    }

    function exactInput(ExactInputParams calldata params) external payable returns (uint256 amountOut);

    function unwrapWETH9(uint256 amountMinimum, address recipient) external payable;

    function multicall(bytes[] calldata data) external payable returns (bytes[] memory results);
}

/// Across's SpokePool deposit (addresses as bytes32): pulls inputAmount of inputToken from the
/// caller; the relayer that fills pays outputAmount of outputToken to recipient on
/// destinationChainId and, when message is not empty and recipient a contract, calls its
/// handleV3AcrossMessage. An unfilled deposit is refunded to depositor on this chain.
interface IAcrossSpokePool {
    function deposit(
        bytes32 depositor,
        bytes32 recipient,
        bytes32 inputToken,
        bytes32 outputToken,
        uint256 inputAmount,
        uint256 outputAmount,
        uint256 destinationChainId,
        bytes32 exclusiveRelayer,
        uint32 quoteTimestamp,
        uint32 fillDeadline,
        uint32 exclusivityParameter,
        bytes calldata message
    ) external payable;
}

interface IBridgeDeposits {
    function token() external view returns (address);

    function deposit(uint256 amount, uint256 destinationChainId, address recipient) external returns (uint256 nonce);

    function depositTo(uint256 amount, uint256 destinationChainId, bytes32 recipient) external returns (uint256 nonce);

    function depositWithMessage(uint256 amount, uint256 destinationChainId, address recipient, bytes calldata message)
        external
        returns (uint256 nonce);
}

/// The permit-aware adapter in front of a chain's swap and bridge venues: the user calls it once, it
/// pulls the input with the user's permit (EIP-2612 on the token, or a Permit2 PermitTransferFrom
/// naming this contract as spender) and performs the leg in the same transaction, so there is no
/// approval step. There is no arbitrary-call entry point: the tokens it pulls can only go into the
/// leg, for the recipient the caller names. It keeps no tokens between calls (checked after each leg).
///
/// Chain-agnostic: its only constructor argument is Permit2 (one address on every chain), there is
/// no admin and no configuration, so the same init code deployed with CREATE2 through the
/// deterministic deployment proxy has the same address on every EVM chain. The venue of each leg
/// (Uniswap V2 Router02, V3 SwapRouter02, the bridge) is an argument: named by the caller who pays
/// with their own tokens (the ...WithFees entry points, whose fee list may be empty, and
/// depositToWithFees), or signed by the owner as part of the
/// witness (the ...WithIntent ones), so the router only ever acts on a venue the owner chose.
///
/// Sponsored ("gasless") legs: swapWithIntent, swapV3WithIntent, bridgeWithIntent and
/// bridgeToWithIntent may be sent by anyone (the service's relayer, which pays the gas). The owner
/// signs only a Permit2 PermitWitnessTransferFrom whose witness is the whole leg (venue, path, minimum
/// out, recipient, deadline, or venue, destination and recipient); the router hashes the witness
/// itself from the arguments it acts on, so a sender who changes any of them, the amount, the nonce or
/// the owner gets InvalidSigner. A swap intent carries the integrator fees too (recipients and
/// amounts, paid out of the permitted amount before the swap): the owner signs what the integrator
/// takes, and a relayer cannot change it.
///
/// Across chains, bridgeAndSwapWithIntent runs both legs from the one source-chain signature (witness
/// BridgeSwapIntent): it deposits the bridge token with a message for the destination chain's router
/// (venue.depositWithMessage); when the bridge relayer releases it there, that router's
/// onBridgeRelease swaps what arrived through the signed destination venue along the signed path for
/// at least amountOutMin to the recipient, or, when the swap cannot happen (deadline passed, output
/// below the minimum, a path that does not start with the bridged token, a venue without code), pays
/// the bridged tokens to the recipient instead. BridgeSwapSettled says which.
///
/// onBridgeRelease cannot check that its caller is "the" bridge: the router knows no bridge. It does
/// not need to. It spends only tokens that arrived in the same transaction, before the call: the
/// router holds nothing between calls (every entry point ends with assertNothingLeft, and
/// nonReentrant keeps a venue from calling it in the middle of another leg), so whatever it holds
/// beyond what it held before is what the caller (a bridge releasing a deposit) just paid it. It
/// checks that amount of token is really there (ReleaseNotFunded otherwise) and that all of it leaves
/// again, to the message's recipient. A caller who is not a bridge can therefore only swap its own
/// tokens, as it could on the venue directly; the message's owner is then whatever that caller says,
/// so BridgeSwapSettled counts only beside the bridge's own ReleaseWithMessage in the same
/// transaction. The security of a bridge-swap rests where it always did: the owner's signature on the
/// source chain binds the destination router, venue, path, minimum, recipient and deadline into the
/// message, and the bridge delivers that message with the deposit.
contract SwapGatewayRouter is ReentrancyGuard {
    using SafeERC20 for IERC20;

    enum PermitKind {
        EIP2612,
        Permit2,
        /// No signature: the caller approved this contract (ERC-20 approve) beforehand.
        Allowance
    }

    /// How the caller (the token owner) authorizes this contract to pull the leg's input:
    ///  - EIP2612: the token's permit(owner = caller, spender = this contract, value = the leg's
    ///    amount, deadline); nonce is unused (the token keeps its own);
    ///  - Permit2: a PermitTransferFrom of {token, amount = the leg's amount} with this nonce and
    ///    deadline, spender = this contract;
    ///  - Allowance: the caller's ERC-20 allowance to this contract (nonce, deadline and signature unused).
    /// signature: 65 bytes (r, s, v) or 64 bytes (EIP-2098 r, vs).
    struct Permit {
        PermitKind kind;
        uint256 nonce;
        uint256 deadline;
        bytes signature;
    }

    ISignatureTransfer public immutable permit2;

    /// An integrator's fee: amount of the leg's input token, paid to recipient out of the input the
    /// router pulled, in the same transaction, before the rest is swapped.
    struct IntegratorFee {
        address recipient;
        uint256 amount;
    }

    /// A user-paid swap that pays integrator fees first (swapWithFees, swapV3WithFees; with no fee,
    /// the plain permitted swap): the caller's amountIn (fees included) is pulled, each fee paid, and
    /// the rest swapped through venue (Uniswap V2 Router02 or V3 SwapRouter02) for at least
    /// amountOutMin to recipient before deadline. Native coin in (swapNativeWithFees,
    /// swapV3NativeWithFees): amountIn is the call's value and the fees are paid in the native coin.
    struct FeeSwap {
        address venue;
        uint256 amountIn;
        uint256 amountOutMin;
        address recipient;
        bool unwrapNative;
        uint256 deadline;
    }

    /// One integrator fee paid out of a swap's input (user-paid or sponsored), by payer (the token owner).
    event IntegratorFeePaid(address indexed recipient, address indexed token, address indexed payer, uint256 amount);

    event SwapWithPermit(address indexed user, address indexed tokenIn, address indexed to, uint256 amountIn, uint256 amountOut, PermitKind kind);
    event DepositWithPermit(address indexed user, uint256 indexed bridgeNonce, uint256 destinationChainId, uint256 amount, PermitKind kind);

    /// The leg an owner signs as the Permit2 witness of a sponsored Uniswap V2 swap.
    struct SwapIntent {
        /// The Uniswap V2 Router02 that swaps.
        address venue;
        address[] path;
        uint256 amountOutMin;
        address recipient;
        /// The output is WETH and the recipient gets native ETH (Router02
        /// swapExactTokensForETHSupportingFeeOnTransferTokens).
        bool unwrapNative;
        uint256 deadline;
        /// Integrator fees paid out of the permitted amount before the swap (which gets the rest).
        IntegratorFee[] integratorFees;
    }

    /// The leg an owner signs as the Permit2 witness of a sponsored Uniswap V3 swap.
    struct SwapV3Intent {
        /// The Uniswap V3 SwapRouter02 that swaps (exactInput).
        address venue;
        /// token, uint24 fee, token, ..., token (abi.encodePacked), as SwapRouter02 reads it.
        bytes path;
        uint256 amountOutMin;
        address recipient;
        /// The path ends with WETH and the recipient gets native ETH (SwapRouter02 unwrapWETH9).
        bool unwrapNative;
        uint256 deadline;
        /// Integrator fees paid out of the permitted amount before the swap (which gets the rest).
        IntegratorFee[] integratorFees;
    }

    /// The bridge deposit an owner signs as the witness of a sponsored deposit to an EVM address.
    struct BridgeIntent {
        /// The bridge that takes the deposit.
        address venue;
        uint256 destinationChainId;
        address recipient;
        uint256 deadline;
        /// Integrator fees paid out of the permitted amount before the deposit (which gets the rest).
        IntegratorFee[] integratorFees;
    }

    /// As BridgeIntent, to a 32-byte recipient (a Solana public key), through the bridge's depositTo.
    struct BridgeToIntent {
        address venue;
        uint256 destinationChainId;
        bytes32 recipient;
        uint256 deadline;
        /// Integrator fees paid out of the permitted amount before the deposit (which gets the rest).
        IntegratorFee[] integratorFees;
    }

    /// A bridge deposit through venue and the swap on the destination chain, signed together: the
    /// destination router (destinationRouter, on destinationChainId) swaps what the bridge delivers
    /// through destinationVenue (a Uniswap V2 Router02 there) along path for at least amountOutMin to
    /// recipient before deadline, or pays recipient the bridged tokens.
    struct BridgeSwapIntent {
        address venue;
        uint256 destinationChainId;
        address destinationRouter;
        address destinationVenue;
        address[] path;
        uint256 amountOutMin;
        address recipient;
        bool unwrapNative;
        uint256 deadline;
        /// Integrator fees paid on this chain out of the permitted amount before the deposit.
        IntegratorFee[] integratorFees;
    }

    /// The message a bridge-and-swap deposit carries to the destination router (abi.encode of it).
    struct BridgeSwapMessage {
        address owner;
        /// The Uniswap V2 Router02 of the destination chain.
        address venue;
        address[] path;
        uint256 amountOutMin;
        address recipient;
        bool unwrapNative;
        uint256 deadline;
    }

    /// An Across deposit an owner signs as the witness of a sponsored deposit: the SpokePool (venue)
    /// takes the permitted amount less the integrator fees, the owner as depositor (Across refunds an unfilled deposit
    /// to them), and a relayer pays outputAmount of outputToken to recipient on destinationChainId.
    /// quoteTimestamp, fillDeadline, exclusiveRelayer and exclusivityParameter are Across's quote.
    struct AcrossIntent {
        address venue;
        uint256 destinationChainId;
        address outputToken;
        uint256 outputAmount;
        address recipient;
        address exclusiveRelayer;
        uint32 quoteTimestamp;
        uint32 fillDeadline;
        uint32 exclusivityParameter;
        uint256 deadline;
        /// Integrator fees paid out of the permitted amount before the deposit (which gets the rest).
        IntegratorFee[] integratorFees;
    }

    /// An Across deposit to the destination chain's router and the Uniswap V3 swap there, signed
    /// together: the fill pays destinationRouter outputAmount of outputToken and calls its
    /// handleV3AcrossMessage, which swaps what arrived through destinationVenue (SwapRouter02) along
    /// path for at least amountOutMin to recipient before deadline, or pays recipient the bridged tokens.
    struct AcrossSwapIntent {
        address venue;
        uint256 destinationChainId;
        address outputToken;
        uint256 outputAmount;
        address exclusiveRelayer;
        uint32 quoteTimestamp;
        uint32 fillDeadline;
        uint32 exclusivityParameter;
        address destinationRouter;
        address destinationVenue;
        bytes path;
        uint256 amountOutMin;
        address recipient;
        bool unwrapNative;
        uint256 deadline;
        /// Integrator fees paid out of the permitted amount before the deposit (which gets the rest).
        IntegratorFee[] integratorFees;
    }

    /// The message an Across bridge-swap deposit carries to the destination router (abi.encode of it).
    struct AcrossSwapMessage {
        address owner;
        /// The Uniswap V3 SwapRouter02 of the destination chain.
        address venue;
        /// token, uint24 fee, token, ... (abi.encodePacked), starting with the bridged token.
        bytes path;
        uint256 amountOutMin;
        address recipient;
        bool unwrapNative;
        uint256 deadline;
    }

    /// The deposit terms both Across entry points hand to the SpokePool.
    struct AcrossDeposit {
        address spokePool;
        address recipient;
        address outputToken;
        uint256 outputAmount;
        uint256 destinationChainId;
        address exclusiveRelayer;
        uint32 quoteTimestamp;
        uint32 fillDeadline;
        uint32 exclusivityParameter;
    }

    /// What the destination router did with a bridge-and-swap release.
    enum BridgeSwapOutcome {
        /// Swapped along the path: the recipient got at least amountOutMin of the path's last token.
        Swapped,
        /// The deadline had passed: the recipient got the bridged tokens.
        Expired,
        /// The swap reverted (output below amountOutMin, a path that does not start with the
        /// bridged token, no such pool, a venue without code): the recipient got the bridged tokens.
        SwapFailed
    }

    bytes32 public constant INTEGRATOR_FEE_TYPEHASH = keccak256("IntegratorFee(address recipient,uint256 amount)");
    bytes32 public constant SWAP_INTENT_TYPEHASH = keccak256(
        "SwapIntent(address venue,address[] path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)"
    );
    bytes32 public constant SWAP_V3_INTENT_TYPEHASH = keccak256(
        "SwapV3Intent(address venue,bytes path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)"
    );
    bytes32 public constant BRIDGE_INTENT_TYPEHASH = keccak256(
        "BridgeIntent(address venue,uint256 destinationChainId,address recipient,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)"
    );
    bytes32 public constant BRIDGE_TO_INTENT_TYPEHASH =
        keccak256(
        "BridgeToIntent(address venue,uint256 destinationChainId,bytes32 recipient,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)"
    );
    bytes32 public constant BRIDGE_SWAP_INTENT_TYPEHASH = keccak256(
        "BridgeSwapIntent(address venue,uint256 destinationChainId,address destinationRouter,address destinationVenue,address[] path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)"
    );
    bytes32 public constant ACROSS_INTENT_TYPEHASH = keccak256(
        "AcrossIntent(address venue,uint256 destinationChainId,address outputToken,uint256 outputAmount,address recipient,address exclusiveRelayer,uint32 quoteTimestamp,uint32 fillDeadline,uint32 exclusivityParameter,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)"
    );
    bytes32 public constant ACROSS_SWAP_INTENT_TYPEHASH = keccak256(
        "AcrossSwapIntent(address venue,uint256 destinationChainId,address outputToken,uint256 outputAmount,address exclusiveRelayer,uint32 quoteTimestamp,uint32 fillDeadline,uint32 exclusivityParameter,address destinationRouter,address destinationVenue,bytes path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)"
    );
    /// Permit2 witness type strings: the witness field is named "witness" (as Uniswap's permit2-sdk
    /// and UniswapX name it) and the referenced types follow in alphabetical order, as EIP-712 wants.
    string public constant SWAP_INTENT_WITNESS_TYPE =
        "SwapIntent witness)IntegratorFee(address recipient,uint256 amount)SwapIntent(address venue,address[] path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline,IntegratorFee[] integratorFees)TokenPermissions(address token,uint256 amount)";
    string public constant SWAP_V3_INTENT_WITNESS_TYPE =
        "SwapV3Intent witness)IntegratorFee(address recipient,uint256 amount)SwapV3Intent(address venue,bytes path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline,IntegratorFee[] integratorFees)TokenPermissions(address token,uint256 amount)";
    string public constant BRIDGE_INTENT_WITNESS_TYPE =
        "BridgeIntent witness)BridgeIntent(address venue,uint256 destinationChainId,address recipient,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)TokenPermissions(address token,uint256 amount)";
    string public constant BRIDGE_TO_INTENT_WITNESS_TYPE =
        "BridgeToIntent witness)BridgeToIntent(address venue,uint256 destinationChainId,bytes32 recipient,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)TokenPermissions(address token,uint256 amount)";
    string public constant BRIDGE_SWAP_INTENT_WITNESS_TYPE =
        "BridgeSwapIntent witness)BridgeSwapIntent(address venue,uint256 destinationChainId,address destinationRouter,address destinationVenue,address[] path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)TokenPermissions(address token,uint256 amount)";
    string public constant ACROSS_INTENT_WITNESS_TYPE =
        "AcrossIntent witness)AcrossIntent(address venue,uint256 destinationChainId,address outputToken,uint256 outputAmount,address recipient,address exclusiveRelayer,uint32 quoteTimestamp,uint32 fillDeadline,uint32 exclusivityParameter,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)TokenPermissions(address token,uint256 amount)";
    string public constant ACROSS_SWAP_INTENT_WITNESS_TYPE =
        "AcrossSwapIntent witness)AcrossSwapIntent(address venue,uint256 destinationChainId,address outputToken,uint256 outputAmount,address exclusiveRelayer,uint32 quoteTimestamp,uint32 fillDeadline,uint32 exclusivityParameter,address destinationRouter,address destinationVenue,bytes path,uint256 amountOutMin,address recipient,bool unwrapNative,uint256 deadline,IntegratorFee[] integratorFees)IntegratorFee(address recipient,uint256 amount)TokenPermissions(address token,uint256 amount)";

    /// Gas the destination router must have left before it tries a bridge-and-swap's swap: a first
    /// hop, and each further one. A release sent with less reverts (InsufficientGasForSwap) rather
    /// than settling as a failed swap, so an eth_estimateGas of the release always covers the swap.
    uint256 public constant BRIDGE_SWAP_GAS_FIRST_HOP = 220_000;
    uint256 public constant BRIDGE_SWAP_GAS_PER_HOP = 100_000;
    uint256 private constant MAX_PATH_LENGTH = 8;
    /// A V3 path: a 20-byte token, then per hop a 3-byte fee and a 20-byte token.
    uint256 private constant V3_HOP_LENGTH = 23;

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

    /// A sponsored Across deposit (acrossWithIntent, or acrossAndSwapWithIntent with its message): the
    /// deposit's id, recipient and message are in the SpokePool's FundsDeposited.
    event AcrossDepositWithIntent(
        address indexed owner,
        address indexed spokePool,
        uint256 indexed destinationChainId,
        uint256 amount,
        uint256 permitNonce,
        address relayer
    );

    /// A bridge-and-swap release on this (destination) chain: amountIn of the bridged token went to
    /// recipient as amountOut of tokenOut: the path's last token (address(0) for native ETH) when
    /// swapped, else the bridged token itself. owner is the message's (see the contract's comment).
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
    /// The venue is the zero address or this contract.
    error InvalidVenue();
    error TokensLeftBehind(address token, uint256 amount);
    /// The signed intent's deadline has passed.
    error IntentExpired(uint256 deadline);
    /// The permit's token is not the one the leg starts with (the path's first, or the bridge's token).
    error TokenMismatch(address permitted, address expected);
    error InvalidPath();
    /// onBridgeRelease called without amount of token paid to this contract first.
    error ReleaseNotFunded(address token, uint256 amount, uint256 balance);
    /// A bridge-and-swap release sent with too little gas to try the swap (see BRIDGE_SWAP_GAS_FIRST_HOP).
    error InsufficientGasForSwap(uint256 needed);
    /// An integrator fee to the zero address or this contract, of zero, or fees that leave nothing to swap.
    error InvalidIntegratorFee();
    /// A native-in fee swap sent with a value other than its amountIn.
    error NativeAmountMismatch(uint256 value, uint256 amountIn);
    /// A native-coin integrator fee the recipient refused.
    error NativeFeeTransferFailed(address recipient);

    constructor(ISignatureTransfer permit2_) {
        permit2 = permit2_;
    }

    /// A Uniswap V2 swap (Router02) of the caller's tokens that pays integrator fees first: pulls
    /// swap.amountIn of path[0] (permit, or Allowance after an approve of this contract), pays each
    /// fee to its recipient, swaps the rest for at least swap.amountOutMin to swap.recipient.
    /// Native coin in (path[0] is WETH): sent with a value, which must be swap.amountIn (fees
    /// included; the permit is unused); each fee is sent in the native coin (IntegratorFeePaid with
    /// token 0) and the rest swapped by Router02's swapExactETHForTokensSupportingFeeOnTransferTokens.
    /// Every Router02 swap here is a fee-on-transfer one (swapV2Exact), so a taxed token sells and
    /// buys: swap.amountOutMin and the returned amountOut are what the recipient received.
    function swapWithFees(FeeSwap calldata swap, address[] calldata path, IntegratorFee[] calldata fees, Permit calldata permit)
        external
        payable
        nonReentrant
        returns (uint256 amountOut)
    {
        checkFeeSwap(swap);
        if (path.length < 2 || path.length > MAX_PATH_LENGTH) revert InvalidPath();
        if (msg.value > 0) {
            uint256 held = address(this).balance - msg.value;
            uint256 before = receivedOf(path, swap.recipient, false);
            IUniswapV2RouterExactIn(swap.venue).swapExactETHForTokensSupportingFeeOnTransferTokens{
                value: payNativeIntegratorFees(swap, fees)
            }(swap.amountOutMin, path, swap.recipient, swap.deadline);
            amountOut = receivedOf(path, swap.recipient, false) - before;
            settleNativeFeeSwap(held, swap, amountOut);
        } else {
            (uint256 held, uint256 net) = pullPayingFees(IERC20(path[0]), swap, fees, permit);
            amountOut = swapV2Net(swap, path, net);
            settleFeeSwap(IERC20(path[0]), held, swap, amountOut, permit.kind);
        }
    }

    /// As swapWithFees, through SwapRouter02's exactInput along a V3 path. Native coin in (the path
    /// starts with WETH, sent with a value of swap.amountIn): SwapRouter02 wraps the value it is sent.
    function swapV3WithFees(FeeSwap calldata swap, bytes calldata path, IntegratorFee[] calldata fees, Permit calldata permit)
        external
        payable
        nonReentrant
        returns (uint256 amountOut)
    {
        checkFeeSwap(swap);
        IERC20 tokenIn = IERC20(v3PathStart(path));
        if (msg.value > 0) {
            uint256 held = address(this).balance - msg.value;
            uint256 value = payNativeIntegratorFees(swap, fees);
            amountOut = ISwapRouter02ExactIn(swap.venue).exactInput{value: value}(
                ISwapRouter02ExactIn.ExactInputParams({
                    path: path,
                    recipient: swap.recipient,
                    amountIn: value,
                    amountOutMinimum: swap.amountOutMin
                })
            );
            settleNativeFeeSwap(held, swap, amountOut);
        } else {
            (uint256 held, uint256 net) = pullPayingFees(tokenIn, swap, fees, permit);
            amountOut = swapV3Net(swap, path, net);
            settleFeeSwap(tokenIn, held, swap, amountOut, permit.kind);
        }
    }

    function swapV2Net(FeeSwap calldata swap, address[] calldata path, uint256 net) private returns (uint256) {
        return swapV2Exact(swap.venue, net, swap.amountOutMin, path, swap.recipient, swap.unwrapNative, swap.deadline);
    }

    /// Router02's fee-on-transfer exact-input swap of amountIn (already approved to venue) along path
    /// to `to`: swapExactTokensForETHSupportingFeeOnTransferTokens for native out, else
    /// swapExactTokensForTokensSupportingFeeOnTransferTokens. A taxed token swaps on either side: a
    /// sell is priced by what the pair received, and amountOutMin is checked against what `to`
    /// received after a buy tax. Returns what `to` received.
    function swapV2Exact(
        address venue,
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        bool unwrapNative,
        uint256 deadline
    ) private returns (uint256) {
        uint256 before = receivedOf(path, to, unwrapNative);
        if (unwrapNative) {
            IUniswapV2RouterExactIn(venue).swapExactTokensForETHSupportingFeeOnTransferTokens(
                amountIn, amountOutMin, path, to, deadline
            );
        } else {
            IUniswapV2RouterExactIn(venue).swapExactTokensForTokensSupportingFeeOnTransferTokens(
                amountIn, amountOutMin, path, to, deadline
            );
        }
        return receivedOf(path, to, unwrapNative) - before;
    }

    /// What `to` holds of the path's output: the native coin when it is unwrapped, else the last token.
    function receivedOf(address[] calldata path, address to, bool unwrapNative) private view returns (uint256) {
        return unwrapNative ? to.balance : IERC20(path[path.length - 1]).balanceOf(to);
    }

    function swapV3Net(FeeSwap calldata swap, bytes calldata path, uint256 net) private returns (uint256) {
        return swapV3(swap.venue, path, net, swap.amountOutMin, swap.recipient, swap.unwrapNative);
    }

    /// Pulls swap.amountIn from the caller with the permit and pays the fees out of it; returns the
    /// balance held before and what is left to swap (approved to the venue).
    function pullPayingFees(IERC20 token, FeeSwap calldata swap, IntegratorFee[] calldata fees, Permit calldata permit)
        private
        returns (uint256 held, uint256 net)
    {
        held = pull(token, swap.amountIn, permit, swap.venue);
        net = payIntegratorFees(token, msg.sender, swap.amountIn, fees, swap.venue);
    }

    function settleFeeSwap(IERC20 token, uint256 held, FeeSwap calldata swap, uint256 amountOut, PermitKind kind) private {
        assertNothingLeft(token, held);
        emit SwapWithPermit(msg.sender, address(token), swap.recipient, swap.amountIn, amountOut, kind);
    }

    function checkFeeSwap(FeeSwap calldata swap) private view {
        checkLeg(swap.deadline, swap.recipient, swap.venue);
    }

    function checkDeadline(uint256 deadline) private view {
        if (block.timestamp > deadline) revert IntentExpired(deadline);
    }

    /// A leg before its deadline, to a recipient (checkRecipient) through a venue (checkVenue).
    function checkLeg(uint256 deadline, address recipient, address venue) private view {
        checkDeadline(deadline);
        checkRecipient(recipient);
        checkVenue(venue);
    }

    /// Pays each fee out of the gross input this contract just pulled (emitting IntegratorFeePaid)
    /// and lets venue take exactly what is left, which it returns. token 0: the native coin (the
    /// call's value), sent to each recipient; the caller sends the rest along with its venue call.
    function payIntegratorFees(IERC20 token, address payer, uint256 gross, IntegratorFee[] calldata fees, address venue)
        private
        returns (uint256 net)
    {
        net = gross;
        for (uint256 i = 0; i < fees.length; i++) {
            IntegratorFee calldata fee = fees[i];
            if (fee.recipient == address(0) || fee.recipient == address(this) || fee.amount == 0 || fee.amount >= net) {
                revert InvalidIntegratorFee();
            }
            net -= fee.amount;
            if (address(token) == address(0)) {
                (bool paid,) = fee.recipient.call{value: fee.amount}("");
                if (!paid) revert NativeFeeTransferFailed(fee.recipient);
            } else {
                token.safeTransfer(fee.recipient, fee.amount);
            }
            emit IntegratorFeePaid(fee.recipient, address(token), payer, fee.amount);
        }
        if (fees.length > 0 && address(token) != address(0)) token.forceApprove(venue, net);
    }

    /// A user-paid deposit towards a chain whose addresses are not EVM addresses (Solana, Bitcoin),
    /// as the bridge's depositTo (depositToWithFees): recipient is 32 bytes.
    struct FeeDepositTo {
        address venue;
        uint256 amountIn;
        uint256 destinationChainId;
        bytes32 recipient;
    }

    /// Pulls deposit.amountIn (fees included) of the bridge's token from the caller (permit, or
    /// Allowance after an approve of this contract), pays each fee to its recipient (none: the whole
    /// amountIn is deposited) and deposits the rest with the bridge's depositTo.
    function depositToWithFees(FeeDepositTo calldata deposit, IntegratorFee[] calldata fees, Permit calldata permit)
        external
        nonReentrant
        returns (uint256 bridgeNonce)
    {
        checkVenue(deposit.venue);
        IERC20 token = IERC20(IBridgeDeposits(deposit.venue).token());
        uint256 held = pull(token, deposit.amountIn, permit, deposit.venue);
        uint256 net = payIntegratorFees(token, msg.sender, deposit.amountIn, fees, deposit.venue);
        bridgeNonce = IBridgeDeposits(deposit.venue).depositTo(net, deposit.destinationChainId, deposit.recipient);
        assertNothingLeft(token, held);
        emit DepositWithPermit(msg.sender, bridgeNonce, deposit.destinationChainId, net, permit.kind);
    }

    /// A user-paid devnet-bridge deposit that pays integrator fees first (depositWithFees): the
    /// caller's amountIn (fees included) of the bridge's token is pulled, each fee paid, and the rest
    /// deposited into venue for recipient on destinationChainId.
    struct FeeDeposit {
        address venue;
        uint256 amountIn;
        uint256 destinationChainId;
        address recipient;
    }

    /// Pulls deposit.amountIn of the bridge's token from the caller (permit, or Allowance after an
    /// approve of this contract), pays each fee to its recipient and deposits the rest.
    function depositWithFees(FeeDeposit calldata deposit, IntegratorFee[] calldata fees, Permit calldata permit)
        external
        nonReentrant
        returns (uint256 bridgeNonce)
    {
        checkRecipient(deposit.recipient);
        checkVenue(deposit.venue);
        IERC20 token = IERC20(IBridgeDeposits(deposit.venue).token());
        uint256 held = pull(token, deposit.amountIn, permit, deposit.venue);
        uint256 net = payIntegratorFees(token, msg.sender, deposit.amountIn, fees, deposit.venue);
        bridgeNonce = IBridgeDeposits(deposit.venue).deposit(net, deposit.destinationChainId, deposit.recipient);
        assertNothingLeft(token, held);
        emit DepositWithPermit(msg.sender, bridgeNonce, deposit.destinationChainId, net, permit.kind);
    }

    /// A user-paid Across deposit that pays integrator fees first: pulls amountIn of inputToken from
    /// the caller (permit, or Allowance after an approve of this contract), pays each fee to its
    /// recipient and deposits the rest into the SpokePool (d.spokePool) on d's terms with no message,
    /// the caller as depositor (Across refunds an unfilled deposit to them). The deposit, its id and
    /// depositor are in the SpokePool's FundsDeposited.
    function acrossWithFees(
        AcrossDeposit calldata d,
        address inputToken,
        uint256 amountIn,
        IntegratorFee[] calldata fees,
        Permit calldata permit
    ) external nonReentrant {
        checkRecipient(d.recipient);
        checkVenue(d.spokePool);
        uint256 held = pull(IERC20(inputToken), amountIn, permit, d.spokePool);
        uint256 net = payIntegratorFees(IERC20(inputToken), msg.sender, amountIn, fees, d.spokePool);
        depositAcross(d, ISignatureTransfer.TokenPermissions({token: inputToken, amount: net}), msg.sender, "");
        assertNothingLeft(IERC20(inputToken), held);
    }

    /// Checks that msg.value is swap.amountIn, pays each fee in the native coin out of it and returns
    /// what is left to swap. A native-in swap cannot also unwrap its output.
    function payNativeIntegratorFees(FeeSwap calldata swap, IntegratorFee[] calldata fees) private returns (uint256) {
        if (msg.value != swap.amountIn) revert NativeAmountMismatch(msg.value, swap.amountIn);
        if (swap.unwrapNative) revert InvalidPath();
        return payIntegratorFees(IERC20(address(0)), msg.sender, swap.amountIn, fees, swap.venue);
    }

    /// The venue took all of the native coin it was sent: nothing of the caller's stays here.
    function settleNativeFeeSwap(uint256 held, FeeSwap calldata swap, uint256 amountOut) private {
        if (address(this).balance > held) revert TokensLeftBehind(address(0), address(this).balance - held);
        emit SwapWithPermit(msg.sender, address(0), swap.recipient, swap.amountIn, amountOut, PermitKind.Allowance);
    }

    /// Sponsored V2 swap: pulls exactly permit.permitted.amount of path[0] from owner with owner's
    /// Permit2 witness signature over (permit, this contract, intent) and swaps all of it on the
    /// signed Router02 to intent.recipient. Anyone may send it; only what the owner signed can happen.
    function swapWithIntent(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        SwapIntent calldata intent,
        bytes calldata signature
    ) external nonReentrant returns (uint256 amountOut) {
        checkLeg(intent.deadline, intent.recipient, intent.venue);
        if (intent.path.length < 2) revert InvalidPath();
        if (intent.path[0] != permit.permitted.token) revert TokenMismatch(permit.permitted.token, intent.path[0]);
        uint256 held = pullWithIntent(permit, owner, hashSwapIntent(intent), SWAP_INTENT_WITNESS_TYPE, signature, intent.venue);
        amountOut = swapV2(intent, payIntegratorFees(IERC20(permit.permitted.token), owner, permit.permitted.amount, intent.integratorFees, intent.venue));
        assertNothingLeft(IERC20(permit.permitted.token), held);
        emitSwapWithIntent(permit, owner, intent.recipient, amountOut);
    }

    function swapV2(SwapIntent calldata intent, uint256 amountIn) private returns (uint256) {
        return swapV2Exact(
            intent.venue, amountIn, intent.amountOutMin, intent.path, intent.recipient, intent.unwrapNative, intent.deadline
        );
    }

    /// Sponsored V3 swap: as swapWithIntent, through the signed SwapRouter02's exactInput along the
    /// signed V3 path (native out: the router unwraps its WETH to the recipient).
    function swapV3WithIntent(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        SwapV3Intent calldata intent,
        bytes calldata signature
    ) external nonReentrant returns (uint256 amountOut) {
        checkLeg(intent.deadline, intent.recipient, intent.venue);
        address tokenIn = v3PathStart(intent.path);
        if (tokenIn != permit.permitted.token) revert TokenMismatch(permit.permitted.token, tokenIn);
        uint256 held = pullWithIntent(permit, owner, hashSwapV3Intent(intent), SWAP_V3_INTENT_WITNESS_TYPE, signature, intent.venue);
        amountOut = swapV3Intent(intent, payIntegratorFees(IERC20(tokenIn), owner, permit.permitted.amount, intent.integratorFees, intent.venue));
        assertNothingLeft(IERC20(tokenIn), held);
        emitSwapWithIntent(permit, owner, intent.recipient, amountOut);
    }

    function swapV3Intent(SwapV3Intent calldata intent, uint256 amountIn) private returns (uint256) {
        return swapV3(intent.venue, intent.path, amountIn, intent.amountOutMin, intent.recipient, intent.unwrapNative);
    }

    function emitSwapWithIntent(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        address recipient,
        uint256 amountOut
    ) private {
        emit SwapWithIntent(owner, permit.permitted.token, recipient, permit.permitted.amount, amountOut, permit.nonce, msg.sender);
    }

    /// Sponsored bridge deposit to an EVM address: the whole permitted amount of the signed bridge's
    /// token, to the signed destination chain and recipient.
    function bridgeWithIntent(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        BridgeIntent calldata intent,
        bytes calldata signature
    ) external nonReentrant returns (uint256 bridgeNonce) {
        checkDeadline(intent.deadline);
        if (intent.recipient == address(this)) revert InvalidRecipient();
        bytes32 witness = keccak256(
            abi.encode(
                BRIDGE_INTENT_TYPEHASH,
                intent.venue,
                intent.destinationChainId,
                intent.recipient,
                intent.deadline,
                hashIntegratorFees(intent.integratorFees)
            )
        );
        (IERC20 token, uint256 held) = pullBridgeToken(permit, owner, witness, BRIDGE_INTENT_WITNESS_TYPE, signature, intent.venue);
        uint256 net = payIntegratorFees(token, owner, permit.permitted.amount, intent.integratorFees, intent.venue);
        bridgeNonce = IBridgeDeposits(intent.venue).deposit(net, intent.destinationChainId, intent.recipient);
        assertNothingLeft(token, held);
        emit DepositWithIntent(owner, bridgeNonce, intent.destinationChainId, net, permit.nonce, msg.sender);
    }

    /// Sponsored bridge deposit to a 32-byte recipient (Solana, Bitcoin), as the bridge's depositTo:
    /// the signed integrator fees first, the rest deposited.
    function bridgeToWithIntent(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        BridgeToIntent calldata intent,
        bytes calldata signature
    ) external nonReentrant returns (uint256 bridgeNonce) {
        checkDeadline(intent.deadline);
        bytes32 witness = keccak256(
            abi.encode(
                BRIDGE_TO_INTENT_TYPEHASH,
                intent.venue,
                intent.destinationChainId,
                intent.recipient,
                intent.deadline,
                hashIntegratorFees(intent.integratorFees)
            )
        );
        (IERC20 token, uint256 held) = pullBridgeToken(permit, owner, witness, BRIDGE_TO_INTENT_WITNESS_TYPE, signature, intent.venue);
        uint256 net = payIntegratorFees(token, owner, permit.permitted.amount, intent.integratorFees, intent.venue);
        bridgeNonce = IBridgeDeposits(intent.venue).depositTo(net, intent.destinationChainId, intent.recipient);
        assertNothingLeft(token, held);
        emit DepositWithIntent(owner, bridgeNonce, intent.destinationChainId, net, permit.nonce, msg.sender);
    }

    /// Sponsored bridge deposit and destination swap, from the one signature on this chain: pulls
    /// the whole permitted amount of the bridge token and deposits it through the signed bridge with a
    /// message (owner, destination venue, path, amountOutMin, recipient, unwrapNative, deadline) to
    /// intent.destinationRouter on intent.destinationChainId, whose onBridgeRelease performs the swap
    /// when the bridge releases it.
    function bridgeAndSwapWithIntent(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        BridgeSwapIntent calldata intent,
        bytes calldata signature
    ) external nonReentrant returns (uint256 bridgeNonce) {
        checkDeadline(intent.deadline);
        if (intent.destinationRouter == address(0)) revert InvalidRecipient();
        if (intent.recipient == address(0) || intent.recipient == intent.destinationRouter) revert InvalidRecipient();
        if (intent.destinationVenue == address(0)) revert InvalidVenue();
        if (intent.path.length < 2 || intent.path.length > MAX_PATH_LENGTH) revert InvalidPath();
        (IERC20 token, uint256 held) =
            pullBridgeToken(permit, owner, hashBridgeSwapIntent(intent), BRIDGE_SWAP_INTENT_WITNESS_TYPE, signature, intent.venue);
        uint256 net = payIntegratorFees(token, owner, permit.permitted.amount, intent.integratorFees, intent.venue);
        bridgeNonce = IBridgeDeposits(intent.venue).depositWithMessage(
            net, intent.destinationChainId, intent.destinationRouter, bridgeSwapMessage(owner, intent)
        );
        assertNothingLeft(token, held);
        emit DepositWithIntent(owner, bridgeNonce, intent.destinationChainId, net, permit.nonce, msg.sender);
    }

    /// The destination half of bridgeAndSwapWithIntent, called by a bridge right after it paid amount
    /// of token here (DevnetBridge.releaseWithMessage). Swaps all of it through the message's venue
    /// along its path for at least amountOutMin to the recipient; when that cannot happen, pays the
    /// recipient the bridged tokens. Either way nothing stays here. Why it needs no list of bridges:
    /// see the contract's comment.
    function onBridgeRelease(address token, uint256 amount, bytes calldata message) external nonReentrant {
        BridgeSwapMessage memory m = abi.decode(message, (BridgeSwapMessage));
        uint256 held = fundedRelease(token, amount, m.recipient);
        (BridgeSwapOutcome outcome, address tokenOut, uint256 amountOut) = settleBridgeSwap(IERC20(token), amount, m);
        assertNothingLeft(IERC20(token), held);
        emit BridgeSwapSettled(m.owner, m.recipient, tokenOut, amount, amountOut, outcome);
    }

    /// Sponsored Across deposit: pulls the whole permitted amount (the SpokePool's input token), pays
    /// the signed integrator fees and deposits the rest with the signed terms and no message, the
    /// owner as depositor.
    function acrossWithIntent(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        AcrossIntent calldata intent,
        bytes calldata signature
    ) external nonReentrant {
        checkLeg(intent.deadline, intent.recipient, intent.venue);
        uint256 held = pullWithIntent(permit, owner, hashAcrossIntent(intent), ACROSS_INTENT_WITNESS_TYPE, signature, intent.venue);
        uint256 net = payIntegratorFees(IERC20(permit.permitted.token), owner, permit.permitted.amount, intent.integratorFees, intent.venue);
        depositAcrossWithIntent(
            AcrossDeposit({
                spokePool: intent.venue,
                recipient: intent.recipient,
                outputToken: intent.outputToken,
                outputAmount: intent.outputAmount,
                destinationChainId: intent.destinationChainId,
                exclusiveRelayer: intent.exclusiveRelayer,
                quoteTimestamp: intent.quoteTimestamp,
                fillDeadline: intent.fillDeadline,
                exclusivityParameter: intent.exclusivityParameter
            }),
            permit,
            net,
            owner,
            ""
        );
        assertNothingLeft(IERC20(permit.permitted.token), held);
    }

    /// Sponsored Across deposit and destination swap, from the one signature on this chain: pays the
    /// signed integrator fees out of the permitted amount and deposits the rest to
    /// intent.destinationRouter on the destination chain with an AcrossSwapMessage; the fill there
    /// calls that router's handleV3AcrossMessage, which swaps.
    function acrossAndSwapWithIntent(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        AcrossSwapIntent calldata intent,
        bytes calldata signature
    ) external nonReentrant {
        checkDeadline(intent.deadline);
        if (intent.destinationRouter == address(0)) revert InvalidRecipient();
        if (intent.recipient == address(0) || intent.recipient == intent.destinationRouter) revert InvalidRecipient();
        if (intent.destinationVenue == address(0)) revert InvalidVenue();
        checkVenue(intent.venue);
        if (v3PathStart(intent.path) != intent.outputToken) revert TokenMismatch(intent.outputToken, v3PathStart(intent.path));
        uint256 held =
            pullWithIntent(permit, owner, hashAcrossSwapIntent(intent), ACROSS_SWAP_INTENT_WITNESS_TYPE, signature, intent.venue);
        uint256 net = payIntegratorFees(IERC20(permit.permitted.token), owner, permit.permitted.amount, intent.integratorFees, intent.venue);
        depositAcrossWithIntent(
            AcrossDeposit({
                spokePool: intent.venue,
                recipient: intent.destinationRouter,
                outputToken: intent.outputToken,
                outputAmount: intent.outputAmount,
                destinationChainId: intent.destinationChainId,
                exclusiveRelayer: intent.exclusiveRelayer,
                quoteTimestamp: intent.quoteTimestamp,
                fillDeadline: intent.fillDeadline,
                exclusivityParameter: intent.exclusivityParameter
            }),
            permit,
            net,
            owner,
            abi.encode(
                AcrossSwapMessage({
                    owner: owner,
                    venue: intent.destinationVenue,
                    path: intent.path,
                    amountOutMin: intent.amountOutMin,
                    recipient: intent.recipient,
                    unwrapNative: intent.unwrapNative,
                    deadline: intent.deadline
                })
            )
        );
        assertNothingLeft(IERC20(permit.permitted.token), held);
    }

    /// Across's message handler (AcrossMessageHandler): the destination half of
    /// acrossAndSwapWithIntent. A SpokePool's fill pays this contract amount of tokenSent (the
    /// deposit's outputToken), then calls this with the filling relayer and the deposit's message, in
    /// the same transaction; a revert here reverts the fill. Swaps all of it through the message's
    /// SwapRouter02 along its V3 path for at least amountOutMin to the recipient, or, when that cannot
    /// happen (deadline passed, output below the minimum, a path that does not start with tokenSent),
    /// pays the recipient tokenSent: exactly as onBridgeRelease, and for the same reason it needs no
    /// list of SpokePools (see the contract's comment). The filler must give the fill enough gas for
    /// the swap: with less than BRIDGE_SWAP_GAS_FIRST_HOP (+ BRIDGE_SWAP_GAS_PER_HOP per further hop)
    /// left here it reverts (InsufficientGasForSwap), so an eth_estimateGas of the fill covers it.
    function handleV3AcrossMessage(address tokenSent, uint256 amount, address, bytes calldata message) external nonReentrant {
        AcrossSwapMessage memory m = abi.decode(message, (AcrossSwapMessage));
        uint256 held = fundedRelease(tokenSent, amount, m.recipient);
        (BridgeSwapOutcome outcome, address tokenOut, uint256 amountOut) = settleAcrossSwap(IERC20(tokenSent), amount, m);
        assertNothingLeft(IERC20(tokenSent), held);
        emit BridgeSwapSettled(m.owner, m.recipient, tokenOut, amount, amountOut, outcome);
    }

    /// Checks a release's recipient and that amount of token was paid here; returns what was held before.
    function fundedRelease(address token, uint256 amount, address recipient) private view returns (uint256 held) {
        // Never from the source entry points (they refuse them); a hand-made deposit's release reverts.
        checkRecipient(recipient);
        uint256 balance = IERC20(token).balanceOf(address(this));
        if (balance < amount) revert ReleaseNotFunded(token, amount, balance);
        return balance - amount;
    }

    /// Why a release's swap is not tried (Expired, SwapFailed), or Swapped when it may be.
    /// `tokens` is the path's length in tokens; the gas check comes last.
    function releaseSwapBlocker(uint256 deadline, bool startsWithToken, address venue, uint256 tokens)
        private
        view
        returns (BridgeSwapOutcome)
    {
        if (block.timestamp > deadline) return BridgeSwapOutcome.Expired;
        // A venue without code would answer the call with nothing, which try/catch cannot catch.
        if (!startsWithToken || venue == address(this) || venue.code.length == 0) return BridgeSwapOutcome.SwapFailed;
        // The swap gets 63/64 of what is left: with less than it needs it would fail for want of gas
        // and settle as SwapFailed, so too little gas reverts the release instead.
        uint256 needed = BRIDGE_SWAP_GAS_FIRST_HOP + BRIDGE_SWAP_GAS_PER_HOP * (tokens - 2);
        if (gasleft() < needed) revert InsufficientGasForSwap(needed);
        return BridgeSwapOutcome.Swapped;
    }

    function settleBridgeSwap(IERC20 token, uint256 amount, BridgeSwapMessage memory m)
        private
        returns (BridgeSwapOutcome outcome, address tokenOut, uint256 amountOut)
    {
        uint256 length = m.path.length;
        bool valid = length >= 2 && m.path[0] == address(token);
        outcome = releaseSwapBlocker(m.deadline, valid, m.venue, length);
        if (outcome != BridgeSwapOutcome.Swapped) return payBridged(token, amount, m.recipient, outcome);
        IUniswapV2RouterExactIn venue = IUniswapV2RouterExactIn(m.venue);
        token.forceApprove(address(venue), amount);
        if (m.unwrapNative) {
            try venue.swapExactTokensForETH(amount, m.amountOutMin, m.path, m.recipient, m.deadline) returns (
                uint256[] memory amounts
            ) {
                return (BridgeSwapOutcome.Swapped, address(0), amounts[amounts.length - 1]);
            } catch {}
        } else {
            try venue.swapExactTokensForTokens(amount, m.amountOutMin, m.path, m.recipient, m.deadline) returns (
                uint256[] memory amounts
            ) {
                return (BridgeSwapOutcome.Swapped, m.path[length - 1], amounts[amounts.length - 1]);
            } catch {}
        }
        return swapFailed(token, address(venue), amount, m.recipient);
    }

    /// As settleBridgeSwap, through SwapRouter02's exactInput along a V3 path (native out: exactInput
    /// to the venue and its unwrapWETH9 to the recipient in one multicall, so both or neither happen).
    function settleAcrossSwap(IERC20 token, uint256 amount, AcrossSwapMessage memory m)
        private
        returns (BridgeSwapOutcome outcome, address tokenOut, uint256 amountOut)
    {
        bytes memory path = m.path;
        uint256 hops = path.length >= 20 + V3_HOP_LENGTH && (path.length - 20) % V3_HOP_LENGTH == 0
            ? (path.length - 20) / V3_HOP_LENGTH
            : 0;
        bool valid = hops > 0 && hops < MAX_PATH_LENGTH && pathTokenAt(path, 0) == address(token);
        outcome = releaseSwapBlocker(m.deadline, valid, m.venue, hops + 1);
        if (outcome != BridgeSwapOutcome.Swapped) return payBridged(token, amount, m.recipient, outcome);
        ISwapRouter02ExactIn venue = ISwapRouter02ExactIn(m.venue);
        token.forceApprove(address(venue), amount);
        ISwapRouter02ExactIn.ExactInputParams memory params = ISwapRouter02ExactIn.ExactInputParams({
            path: path,
            recipient: m.unwrapNative ? address(venue) : m.recipient,
            amountIn: amount,
            amountOutMinimum: m.amountOutMin
        });
        if (m.unwrapNative) {
            bytes[] memory calls = new bytes[](2);
            calls[0] = abi.encodeCall(ISwapRouter02ExactIn.exactInput, (params));
            calls[1] = abi.encodeCall(ISwapRouter02ExactIn.unwrapWETH9, (m.amountOutMin, m.recipient));
            try venue.multicall(calls) returns (bytes[] memory results) {
                return (BridgeSwapOutcome.Swapped, address(0), abi.decode(results[0], (uint256)));
            } catch {}
        } else {
            try venue.exactInput(params) returns (uint256 out) {
                return (BridgeSwapOutcome.Swapped, pathTokenAt(path, path.length - 20), out);
            } catch {}
        }
        return swapFailed(token, address(venue), amount, m.recipient);
    }

    /// The swap reverted: its allowance is withdrawn and the recipient gets the bridged tokens.
    function swapFailed(IERC20 token, address venue, uint256 amount, address recipient)
        private
        returns (BridgeSwapOutcome, address, uint256)
    {
        token.forceApprove(venue, 0);
        return payBridged(token, amount, recipient, BridgeSwapOutcome.SwapFailed);
    }

    /// The 20-byte token at byte offset `at` of a V3 path in memory.
    function pathTokenAt(bytes memory path, uint256 at) private pure returns (address token) {
        assembly {
            token := shr(96, mload(add(add(path, 32), at)))
        }
    }

    /// The SpokePool's deposit of input (already approved to it), depositor being the token owner
    /// (the intent's signer, or the caller who pays), so an unfilled deposit is refunded to them,
    /// never to this contract. input in one struct: a word less on the stack.
    function depositAcross(
        AcrossDeposit memory d,
        ISignatureTransfer.TokenPermissions memory input,
        address depositor,
        bytes memory message
    ) private {
        IAcrossSpokePool(d.spokePool).deposit(
            toBytes32(depositor),
            toBytes32(d.recipient),
            toBytes32(input.token),
            toBytes32(d.outputToken),
            input.amount,
            d.outputAmount,
            d.destinationChainId,
            toBytes32(d.exclusiveRelayer),
            d.quoteTimestamp,
            d.fillDeadline,
            d.exclusivityParameter,
            message
        );
    }

    /// A sponsored Across deposit of amount of the permitted token (what the fees left), the owner as depositor.
    function depositAcrossWithIntent(
        AcrossDeposit memory d,
        ISignatureTransfer.PermitTransferFrom calldata permit,
        uint256 amount,
        address owner,
        bytes memory message
    ) private {
        depositAcross(d, ISignatureTransfer.TokenPermissions({token: permit.permitted.token, amount: amount}), owner, message);
        emit AcrossDepositWithIntent(owner, d.spokePool, d.destinationChainId, amount, permit.nonce, msg.sender);
    }

    function toBytes32(address account) private pure returns (bytes32) {
        return bytes32(uint256(uint160(account)));
    }

    /// EIP-712 hashStruct of an AcrossIntent: its static fields' words in order, then the fees'
    /// hash, in two abi.encode halves (static words concatenate as one encoding) for the stack.
    function hashAcrossIntent(AcrossIntent calldata intent) private pure returns (bytes32) {
        return keccak256(
            bytes.concat(
                abi.encode(
                    ACROSS_INTENT_TYPEHASH,
                    intent.venue,
                    intent.destinationChainId,
                    intent.outputToken,
                    intent.outputAmount,
                    intent.recipient
                ),
                abi.encode(
                    intent.exclusiveRelayer,
                    intent.quoteTimestamp,
                    intent.fillDeadline,
                    intent.exclusivityParameter,
                    intent.deadline,
                    hashIntegratorFees(intent.integratorFees)
                )
            )
        );
    }

    /// EIP-712 hashStruct of an AcrossSwapIntent: the path's bytes and the fees as their hashes, in two
    /// abi.encode halves (static words concatenate as one encoding) to stay within the stack.
    function hashAcrossSwapIntent(AcrossSwapIntent calldata intent) private pure returns (bytes32) {
        return keccak256(
            bytes.concat(
                abi.encode(
                    ACROSS_SWAP_INTENT_TYPEHASH,
                    intent.venue,
                    intent.destinationChainId,
                    intent.outputToken,
                    intent.outputAmount,
                    intent.exclusiveRelayer,
                    intent.quoteTimestamp,
                    intent.fillDeadline
                ),
                abi.encode(
                    intent.exclusivityParameter,
                    intent.destinationRouter,
                    intent.destinationVenue,
                    keccak256(intent.path),
                    intent.amountOutMin,
                    intent.recipient,
                    intent.unwrapNative,
                    intent.deadline,
                    hashIntegratorFees(intent.integratorFees)
                )
            )
        );
    }

    function payBridged(IERC20 token, uint256 amount, address recipient, BridgeSwapOutcome outcome)
        private
        returns (BridgeSwapOutcome, address, uint256)
    {
        token.safeTransfer(recipient, amount);
        return (outcome, address(token), amount);
    }

    /// SwapRouter02 exactInput of amountIn (already approved to venue) along path to `to`, or to the
    /// venue then unwrapWETH9(amountOutMin, to) for native out.
    function swapV3(address venue, bytes calldata path, uint256 amountIn, uint256 amountOutMin, address to, bool unwrapNative)
        private
        returns (uint256 amountOut)
    {
        ISwapRouter02ExactIn router = ISwapRouter02ExactIn(venue);
        amountOut = router.exactInput(
            ISwapRouter02ExactIn.ExactInputParams({
                path: path,
                recipient: unwrapNative ? venue : to,
                amountIn: amountIn,
                amountOutMinimum: amountOutMin
            })
        );
        if (unwrapNative) router.unwrapWETH9(amountOutMin, to);
    }

    /// The first token of a V3 path, after checking its shape: 2 to MAX_PATH_LENGTH tokens.
    function v3PathStart(bytes calldata path) private pure returns (address) {
        if (path.length < 20 + V3_HOP_LENGTH || (path.length - 20) % V3_HOP_LENGTH != 0) revert InvalidPath();
        if ((path.length - 20) / V3_HOP_LENGTH > MAX_PATH_LENGTH - 1) revert InvalidPath();
        return address(bytes20(path[0:20]));
    }

    /// A recipient of the leg's output (or an Across deposit's) is neither the zero address nor this contract.
    function checkRecipient(address recipient) private view {
        if (recipient == address(0) || recipient == address(this)) revert InvalidRecipient();
    }

    function checkVenue(address venue) private view {
        if (venue == address(0) || venue == address(this)) revert InvalidVenue();
    }

    function bridgeSwapMessage(address owner, BridgeSwapIntent calldata intent) private pure returns (bytes memory) {
        return abi.encode(
            BridgeSwapMessage({
                owner: owner,
                venue: intent.destinationVenue,
                path: intent.path,
                amountOutMin: intent.amountOutMin,
                recipient: intent.recipient,
                unwrapNative: intent.unwrapNative,
                deadline: intent.deadline
            })
        );
    }

    /// EIP-712 hashStruct of a BridgeSwapIntent (path, bool and fees as in hashSwapIntent), in two
    /// abi.encode halves (static words concatenate as one encoding) to stay within the stack.
    function hashBridgeSwapIntent(BridgeSwapIntent calldata intent) private pure returns (bytes32) {
        return keccak256(
            bytes.concat(
                abi.encode(
                    BRIDGE_SWAP_INTENT_TYPEHASH,
                    intent.venue,
                    intent.destinationChainId,
                    intent.destinationRouter,
                    intent.destinationVenue,
                    keccak256(abi.encodePacked(intent.path))
                ),
                abi.encode(
                    intent.amountOutMin,
                    intent.recipient,
                    intent.unwrapNative,
                    intent.deadline,
                    hashIntegratorFees(intent.integratorFees)
                )
            )
        );
    }

    /// EIP-712 hashStruct of a SwapIntent: the address[] is the keccak of its 32-byte-padded
    /// elements (abi.encodePacked pads array elements), the bool a uint256 0 or 1.
    function hashSwapIntent(SwapIntent calldata intent) private pure returns (bytes32) {
        return keccak256(
            abi.encode(
                SWAP_INTENT_TYPEHASH,
                intent.venue,
                keccak256(abi.encodePacked(intent.path)),
                intent.amountOutMin,
                intent.recipient,
                intent.unwrapNative,
                intent.deadline,
                hashIntegratorFees(intent.integratorFees)
            )
        );
    }

    /// EIP-712 hash of an IntegratorFee[]: the keccak of the fees' hashStructs, concatenated.
    function hashIntegratorFees(IntegratorFee[] calldata fees) private pure returns (bytes32) {
        bytes32[] memory hashes = new bytes32[](fees.length);
        for (uint256 i = 0; i < fees.length; i++) {
            hashes[i] = keccak256(abi.encode(INTEGRATOR_FEE_TYPEHASH, fees[i].recipient, fees[i].amount));
        }
        return keccak256(abi.encodePacked(hashes));
    }

    /// EIP-712 hashStruct of a SwapV3Intent: dynamic bytes are the keccak of their contents.
    function hashSwapV3Intent(SwapV3Intent calldata intent) private pure returns (bytes32) {
        return keccak256(
            abi.encode(
                SWAP_V3_INTENT_TYPEHASH,
                intent.venue,
                keccak256(intent.path),
                intent.amountOutMin,
                intent.recipient,
                intent.unwrapNative,
                intent.deadline,
                hashIntegratorFees(intent.integratorFees)
            )
        );
    }

    /// Pulls the permitted amount of the signed bridge's token (the permit must be for it).
    function pullBridgeToken(
        ISignatureTransfer.PermitTransferFrom calldata permit,
        address owner,
        bytes32 witness,
        string memory witnessTypeString,
        bytes calldata signature,
        address venue
    ) private returns (IERC20 token, uint256 held) {
        checkVenue(venue);
        address bridgeToken = IBridgeDeposits(venue).token();
        if (permit.permitted.token != bridgeToken) revert TokenMismatch(permit.permitted.token, bridgeToken);
        return (IERC20(bridgeToken), pullWithIntent(permit, owner, witness, witnessTypeString, signature, venue));
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
        } else if (permit.kind == PermitKind.Allowance) {
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
