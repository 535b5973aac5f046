// Human-readable ABIs (ethers) of the devnet contracts, for services that build calls against
// them (quote-service reads pools, the planner encodes bridge deposits, status reads events).

export const DEVNET_BRIDGE_ABI = [
  'function token() view returns (address)',
  'function relayer() view returns (address)',
  'function feeBps() view returns (uint16)',
  'function nextNonce() view returns (uint256)',
  'function released(uint256 sourceChainId, uint256 nonce) view returns (bool)',
  'function quote(uint256 amount) view returns (uint256 amountAfterFee)',
  'function deposit(uint256 amount, uint256 destinationChainId, address recipient) returns (uint256 nonce)',
  'function depositTo(uint256 amount, uint256 destinationChainId, bytes32 recipient) returns (uint256 nonce)',
  'function release(uint256 sourceChainId, uint256 nonce, address recipient, uint256 amount) returns (bool)',
  'function depositWithMessage(uint256 amount, uint256 destinationChainId, address recipient, bytes message) returns (uint256 nonce)',
  'function releaseWithMessage(uint256 sourceChainId, uint256 nonce, address recipient, uint256 amount, bytes message) returns (bool)',
  'event Deposit(uint256 indexed nonce, address indexed sender, address indexed recipient, uint256 destinationChainId, uint256 amount, uint256 amountAfterFee)',
  'event DepositTo(uint256 indexed nonce, address indexed sender, bytes32 indexed recipient, uint256 destinationChainId, uint256 amount, uint256 amountAfterFee)',
  'event DepositWithMessage(uint256 indexed nonce, address indexed sender, address indexed recipient, uint256 destinationChainId, uint256 amount, uint256 amountAfterFee, bytes message)',
  'event Release(uint256 indexed sourceChainId, uint256 indexed nonce, address indexed recipient, uint256 amount)',
  'event ReleaseWithMessage(uint256 indexed sourceChainId, uint256 indexed nonce, address indexed recipient, uint256 amount, bytes32 messageHash)',
  'error NotRelayer()',
  'error InvalidDeposit(string reason)',
] as const;

/** BridgeSwapSettled's outcome (SwapGatewayRouter.BridgeSwapOutcome). */
export const BRIDGE_SWAP_OUTCOMES = ['swapped', 'expired', 'swap-failed'] as const;

/**
 * The bridge deposit to a 32-byte recipient (Solana): `depositTo(amount, SOLANA_BRIDGE_CHAIN_ID,
 * solanaRecipientBytes32(address))` after approving the bridge, as `deposit` for EVM recipients.
 */
export const DEVNET_BRIDGE_DEPOSIT_TO_ABI = [
  'function depositTo(uint256 amount, uint256 destinationChainId, bytes32 recipient) returns (uint256 nonce)',
  'event DepositTo(uint256 indexed nonce, address indexed sender, bytes32 indexed recipient, uint256 destinationChainId, uint256 amount, uint256 amountAfterFee)',
] as const;

export const ERC20_PERMIT_ABI = [
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
  'function nonces(address owner) view returns (uint256)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
] as const;

export const WETH9_ABI = [
  ...ERC20_PERMIT_ABI.filter((f) => !/nonces|DOMAIN_SEPARATOR|permit/.test(f)),
  'function deposit() payable',
  'function withdraw(uint256 wad)',
] as const;

export const UNISWAP_V2_FACTORY_ABI = [
  'function getPair(address tokenA, address tokenB) view returns (address pair)',
  'function allPairsLength() view returns (uint256)',
  'function createPair(address tokenA, address tokenB) returns (address pair)',
] as const;

export const UNISWAP_V2_PAIR_ABI = [
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
] as const;

export const UNISWAP_V2_ROUTER_ABI = [
  'function factory() view returns (address)',
  'function WETH() view returns (address)',
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
  'function getAmountsIn(uint256 amountOut, address[] path) view returns (uint256[] amounts)',
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)',
  'function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256 amountToken, uint256 amountETH, uint256 liquidity)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
] as const;

/** The devnet Permit2 (SignatureTransfer), same interface and errors as Uniswap's canonical Permit2. */
export const PERMIT2_ABI = [
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function nonceBitmap(address owner, uint256 wordPos) view returns (uint256)',
  'function permitTransferFrom(((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, (address to, uint256 requestedAmount) transferDetails, address owner, bytes signature)',
  'function permitWitnessTransferFrom(((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, (address to, uint256 requestedAmount) transferDetails, address owner, bytes32 witness, string witnessTypeString, bytes signature)',
  'function invalidateUnorderedNonces(uint256 wordPos, uint256 mask)',
  'event UnorderedNonceInvalidation(address indexed owner, uint256 word, uint256 mask)',
  'error SignatureExpired(uint256 signatureDeadline)',
  'error InvalidNonce()',
  'error InvalidAmount(uint256 maxAmount)',
  'error InvalidSignatureLength()',
  'error InvalidSignature()',
  'error InvalidSigner()',
  'error InvalidContractSignature()',
] as const;

const PERMIT2_PERMIT_TUPLE =
  '((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit';

/**
 * SwapGatewayRouter: one call pulls the input with the user's permit (or allowance), pays the
 * integrator fees it is given (none: `[]`) and performs the leg through the venue it names
 * (`swapWithFees` Router02, `swapV3WithFees` SwapRouter02, `depositWithFees` / `depositToWithFees`
 * (a 32-byte recipient) the bridge,
 * `acrossWithFees` an Across SpokePool with the caller as depositor; the router has no
 * configuration); the swaps
 * sent with a value take native coin in (the value is `amountIn`) and pay the fees in it. `permit` is `(kind, nonce, deadline, signature)`: kind 0 = EIP-2612
 * (nonce unused), 1 = Permit2, 2 = the caller's allowance to the router. The
 * `...WithIntent` entry points are the sponsored ones: anyone sends them with the owner's Permit2
 * witness signature over the leg, venue included (see @swapgw/chains sponsored-intents).
 * `bridgeAndSwapWithIntent` deposits with a message whose release on the destination chain calls that
 * chain's router's `onBridgeRelease` (BridgeSwapSettled: outcome 0 swapped, 1 expired, 2 swap failed;
 * the latter two pay the bridged tokens). `acrossWithIntent` deposits into an Across SpokePool;
 * `acrossAndSwapWithIntent` deposits to the destination's router with a message, whose fill calls
 * that router's `handleV3AcrossMessage` (the same settlement and BridgeSwapSettled).
 */
export const SWAP_GATEWAY_ROUTER_ABI = [
  'function permit2() view returns (address)',
  'function depositToWithFees((address venue, uint256 amountIn, uint256 destinationChainId, bytes32 recipient) deposit, (address recipient, uint256 amount)[] fees, (uint8 kind, uint256 nonce, uint256 deadline, bytes signature) permit) returns (uint256 bridgeNonce)',
  'function swapWithFees((address venue, uint256 amountIn, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline) swap, address[] path, (address recipient, uint256 amount)[] fees, (uint8 kind, uint256 nonce, uint256 deadline, bytes signature) permit) payable returns (uint256 amountOut)',
  'function swapV3WithFees((address venue, uint256 amountIn, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline) swap, bytes path, (address recipient, uint256 amount)[] fees, (uint8 kind, uint256 nonce, uint256 deadline, bytes signature) permit) payable returns (uint256 amountOut)',
  'function depositWithFees((address venue, uint256 amountIn, uint256 destinationChainId, address recipient) deposit, (address recipient, uint256 amount)[] fees, (uint8 kind, uint256 nonce, uint256 deadline, bytes signature) permit) returns (uint256 bridgeNonce)',
  'function acrossWithFees((address spokePool, address recipient, address outputToken, uint256 outputAmount, uint256 destinationChainId, address exclusiveRelayer, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityParameter) d, address inputToken, uint256 amountIn, (address recipient, uint256 amount)[] fees, (uint8 kind, uint256 nonce, uint256 deadline, bytes signature) permit)',
  'event IntegratorFeePaid(address indexed recipient, address indexed token, address indexed payer, uint256 amount)',
  'error InvalidIntegratorFee()',
  'error NativeAmountMismatch(uint256 value, uint256 amountIn)',
  'event SwapWithPermit(address indexed user, address indexed tokenIn, address indexed to, uint256 amountIn, uint256 amountOut, uint8 kind)',
  'event DepositWithPermit(address indexed user, uint256 indexed bridgeNonce, uint256 destinationChainId, uint256 amount, uint8 kind)',
  `function swapWithIntent(${PERMIT2_PERMIT_TUPLE}, address owner, (address venue, address[] path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline, (address recipient, uint256 amount)[] integratorFees) intent, bytes signature) returns (uint256 amountOut)`,
  `function swapV3WithIntent(${PERMIT2_PERMIT_TUPLE}, address owner, (address venue, bytes path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline, (address recipient, uint256 amount)[] integratorFees) intent, bytes signature) returns (uint256 amountOut)`,
  `function bridgeWithIntent(${PERMIT2_PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, address recipient, uint256 deadline, (address recipient, uint256 amount)[] integratorFees) intent, bytes signature) returns (uint256 bridgeNonce)`,
  `function bridgeToWithIntent(${PERMIT2_PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, bytes32 recipient, uint256 deadline, (address recipient, uint256 amount)[] integratorFees) intent, bytes signature) returns (uint256 bridgeNonce)`,
  'function SWAP_INTENT_WITNESS_TYPE() view returns (string)',
  'function SWAP_V3_INTENT_WITNESS_TYPE() view returns (string)',
  'function BRIDGE_INTENT_WITNESS_TYPE() view returns (string)',
  'function BRIDGE_TO_INTENT_WITNESS_TYPE() view returns (string)',
  `function bridgeAndSwapWithIntent(${PERMIT2_PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, address destinationRouter, address destinationVenue, address[] path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline, (address recipient, uint256 amount)[] integratorFees) intent, bytes signature) returns (uint256 bridgeNonce)`,
  'function onBridgeRelease(address token, uint256 amount, bytes message)',
  'function BRIDGE_SWAP_INTENT_WITNESS_TYPE() view returns (string)',
  `function acrossWithIntent(${PERMIT2_PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, address outputToken, uint256 outputAmount, address recipient, address exclusiveRelayer, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityParameter, uint256 deadline, (address recipient, uint256 amount)[] integratorFees) intent, bytes signature)`,
  `function acrossAndSwapWithIntent(${PERMIT2_PERMIT_TUPLE}, address owner, (address venue, uint256 destinationChainId, address outputToken, uint256 outputAmount, address exclusiveRelayer, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityParameter, address destinationRouter, address destinationVenue, bytes path, uint256 amountOutMin, address recipient, bool unwrapNative, uint256 deadline, (address recipient, uint256 amount)[] integratorFees) intent, bytes signature)`,
  'function handleV3AcrossMessage(address tokenSent, uint256 amount, address relayer, bytes message)',
  'function ACROSS_INTENT_WITNESS_TYPE() view returns (string)',
  'function ACROSS_SWAP_INTENT_WITNESS_TYPE() view returns (string)',
  'event AcrossDepositWithIntent(address indexed owner, address indexed spokePool, uint256 indexed destinationChainId, uint256 amount, uint256 permitNonce, address relayer)',
  'event BridgeSwapSettled(address indexed owner, address indexed recipient, address indexed tokenOut, uint256 amountIn, uint256 amountOut, uint8 outcome)',
  'event SwapWithIntent(address indexed owner, address indexed tokenIn, address indexed recipient, uint256 amountIn, uint256 amountOut, uint256 permitNonce, address relayer)',
  'event DepositWithIntent(address indexed owner, uint256 indexed bridgeNonce, uint256 destinationChainId, uint256 amount, uint256 permitNonce, address relayer)',
  'error IntentExpired(uint256 deadline)',
  'error TokenMismatch(address permitted, address expected)',
  'error InvalidPath()',
  'error InvalidVenue()',
  'error ReleaseNotFunded(address token, uint256 amount, uint256 balance)',
  'error InsufficientGasForSwap(uint256 needed)',
  'error PermitRejected(address token)',
  'error InvalidSignatureLength()',
  'error InvalidRecipient()',
  'error TokensLeftBehind(address token, uint256 amount)',
  'error ReentrancyGuardReentrantCall()',
] as const;

/** THORChain_Router's deposit and payout surface (the devnet's ThorchainRouter.sol has the same). */
export const THORCHAIN_ROUTER_ABI = [
  'function depositWithExpiry(address vault, address asset, uint256 amount, string memo, uint256 expiration) payable',
  'function transferOut(address to, address asset, uint256 amount, string memo) payable',
  'function vaultAllowance(address vault, address token) view returns (uint256)',
  'event Deposit(address indexed to, address indexed asset, uint256 amount, string memo)',
  'event TransferOut(address indexed vault, address indexed to, address asset, uint256 amount, string memo)',
] as const;
