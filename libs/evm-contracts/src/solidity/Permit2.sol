// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";

/// The SignatureTransfer interface of Permit2, as integrators call it.
interface ISignatureTransfer {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    function DOMAIN_SEPARATOR() external view returns (bytes32);

    function nonceBitmap(address owner, uint256 wordPos) external view returns (uint256);

    function permitTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes calldata signature
    ) external;

    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;

    function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) external;
}

/// The SignatureTransfer half of Uniswap's Permit2, written for the devnet (the canonical contract is
/// not on anvil chains). Same EIP-712 domain (name "Permit2", chain id, verifying contract; no
/// version), same type strings, unordered nonces, entry points and errors, so a signature made for
/// the canonical contract by a wallet or Uniswap's SDK verifies here unchanged. Tokens move with the
/// owner's plain ERC-20 allowance to this contract, given once per token.
contract Permit2 is ISignatureTransfer {
    using SafeERC20 for IERC20;

    bytes32 public constant TOKEN_PERMISSIONS_TYPEHASH = keccak256("TokenPermissions(address token,uint256 amount)");
    bytes32 public constant PERMIT_TRANSFER_FROM_TYPEHASH =
        keccak256("PermitTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline)TokenPermissions(address token,uint256 amount)");
    /// The fixed head of every PermitWitnessTransferFrom type string; the caller's witnessTypeString
    /// completes it ("<WitnessType> witness)<WitnessType>(...)...TokenPermissions(address token,uint256 amount)").
    string public constant PERMIT_TRANSFER_FROM_WITNESS_TYPEHASH_STUB =
        "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";
    bytes32 private constant EIP712_DOMAIN_TYPEHASH = keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("Permit2");
    bytes32 private constant S_MASK = 0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff;

    /// owner => word position (nonce >> 8) => bitmap of used nonces (bit = nonce & 0xff).
    mapping(address => mapping(uint256 => uint256)) public nonceBitmap;

    event UnorderedNonceInvalidation(address indexed owner, uint256 word, uint256 mask);

    error SignatureExpired(uint256 signatureDeadline);
    error InvalidNonce();
    error InvalidAmount(uint256 maxAmount);
    error InvalidSignatureLength();
    error InvalidSignature();
    error InvalidSigner();
    error InvalidContractSignature();

    /// Computed on every call from address(this), never cached at construction: the mainnet replica
    /// places this code at the canonical Permit2 address, where a separator cached with the
    /// deployment address would reject every signature.
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return buildDomainSeparator();
    }

    /// Moves requestedAmount (at most permitted.amount) of the owner's tokens to transferDetails.to.
    /// The signed spender is msg.sender, so only the contract the owner signed for can use it.
    function permitTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes calldata signature
    ) external {
        bytes32 structHash = keccak256(
            abi.encode(PERMIT_TRANSFER_FROM_TYPEHASH, hashTokenPermissions(permit.permitted), msg.sender, permit.nonce, permit.deadline)
        );
        transferWithSignature(permit, transferDetails, owner, structHash, signature);
    }

    /// As permitTransferFrom, with extra data the owner signed (the witness, an EIP-712 struct hash
    /// of witnessTypeString's type, computed by the spender from what it is about to do), so that
    /// the spender can prove the owner agreed to more than the transfer (where the tokens go next).
    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external {
        bytes32 typeHash = keccak256(abi.encodePacked(PERMIT_TRANSFER_FROM_WITNESS_TYPEHASH_STUB, witnessTypeString));
        bytes32 structHash = keccak256(
            abi.encode(typeHash, hashTokenPermissions(permit.permitted), msg.sender, permit.nonce, permit.deadline, witness)
        );
        transferWithSignature(permit, transferDetails, owner, structHash, signature);
    }

    /// The checks of both entry points, in canonical Permit2's order: deadline, amount, nonce, signature.
    function transferWithSignature(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 structHash,
        bytes calldata signature
    ) private {
        if (block.timestamp > permit.deadline) revert SignatureExpired(permit.deadline);
        if (transferDetails.requestedAmount > permit.permitted.amount) revert InvalidAmount(permit.permitted.amount);
        useUnorderedNonce(owner, permit.nonce);
        verify(signature, keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash)), owner);
        IERC20(permit.permitted.token).safeTransferFrom(owner, transferDetails.to, transferDetails.requestedAmount);
    }

    function hashTokenPermissions(TokenPermissions calldata permitted) private pure returns (bytes32) {
        return keccak256(abi.encode(TOKEN_PERMISSIONS_TYPEHASH, permitted.token, permitted.amount));
    }

    /// Marks the nonces of mask in word wordPos as used, so signatures carrying them can never be spent.
    function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) external {
        nonceBitmap[msg.sender][wordPos] |= mask;
        emit UnorderedNonceInvalidation(msg.sender, wordPos, mask);
    }

    function useUnorderedNonce(address owner, uint256 nonce) private {
        uint256 wordPos = nonce >> 8;
        uint256 bit = 1 << (nonce & 0xff);
        uint256 word = nonceBitmap[owner][wordPos];
        if (word & bit != 0) revert InvalidNonce();
        nonceBitmap[owner][wordPos] = word | bit;
    }

    /// 65-byte (r, s, v) or 64-byte EIP-2098 (r, vs) signatures of an EOA; EIP-1271 for contracts.
    function verify(bytes calldata signature, bytes32 digest, address owner) private view {
        if (owner.code.length > 0) {
            if (IERC1271(owner).isValidSignature(digest, signature) != IERC1271.isValidSignature.selector) revert InvalidContractSignature();
            return;
        }
        bytes32 r;
        bytes32 s;
        uint8 v;
        if (signature.length == 65) {
            r = bytes32(signature[0:32]);
            s = bytes32(signature[32:64]);
            v = uint8(signature[64]);
        } else if (signature.length == 64) {
            r = bytes32(signature[0:32]);
            bytes32 vs = bytes32(signature[32:64]);
            s = vs & S_MASK;
            v = uint8(uint256(vs >> 255)) + 27;
        } else {
            revert InvalidSignatureLength();
        }
        address signer = ecrecover(digest, v, r, s);
        if (signer == address(0)) revert InvalidSignature();
        if (signer != owner) revert InvalidSigner();
    }

    function buildDomainSeparator() private view returns (bytes32) {
        return keccak256(abi.encode(EIP712_DOMAIN_TYPEHASH, NAME_HASH, block.chainid, address(this)));
    }
}
