// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract SignerFixture {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    bool public claimed;
    function mint(address to, uint256 amount) external { balanceOf[to] += amount; }
    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        return true;
    }
    function claim() external {
        require(!claimed, "fixture: already claimed");
        claimed = true;
    }
    function alwaysFails() external pure { revert("fixture: always fails"); }
    // EIP-2612's shape for sponsored permit steps: signer-surface checks the signature before a
    // relayer sends it, so the fixture only records the allowance.
    mapping(address => uint256) public nonces;
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8, bytes32, bytes32) external {
        require(block.timestamp <= deadline, "fixture: permit expired");
        allowance[owner][spender] = value;
        nonces[owner] += 1;
    }
}
