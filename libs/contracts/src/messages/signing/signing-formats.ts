/** The value forms the signing step specs share (module-private to the signing contracts). */

export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const HEX_DATA = /^0x([0-9a-fA-F]{2})*$/;
/** A non-negative integer as a decimal string (base units, wei, satoshis). */
export const BASE_UNITS = /^(0|[1-9][0-9]*)$/;
export const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
