import type { CosmosChain, IncludedTx } from './cosmos-chain';

interface Condition {
  key: string;
  op: '=' | '<' | '<=' | '>' | '>=' | 'CONTAINS';
  value: string;
}

/**
 * CometBFT's tx indexer queries as far as wallets use them: `key op value` conditions joined by
 * AND, keys `tx.hash`, `tx.height` or `<event type>.<attribute>`; strings quoted, numbers bare.
 */
export function searchTxs(chain: CosmosChain, query: string, order: 'asc' | 'desc'): IncludedTx[] {
  const conditions = query
    .split(/\s+AND\s+/i)
    .filter((part) => part.trim() !== '')
    .map(parseCondition);
  const found = chain.includedTxs().filter((tx) => conditions.every((c) => matches(tx, c)));
  found.sort((a, b) => a.height - b.height || a.index - b.index);
  return order === 'desc' ? found.reverse() : found;
}

function parseCondition(text: string): Condition {
  const match = /^\s*([\w.\-/]+)\s*(<=|>=|=|<|>|CONTAINS)\s*(?:'([^']*)'|(\S+))\s*$/.exec(text);
  if (!match) throw new Error(`failed to parse query: ${text}`);
  return { key: match[1], op: match[2] as Condition['op'], value: match[3] ?? match[4] };
}

function valuesOf(tx: IncludedTx, key: string): string[] {
  if (key === 'tx.hash') return [tx.hash];
  if (key === 'tx.height') return [String(tx.height)];
  // CometBFT indexes each attribute under its composite key `<event type>.<attribute key>`, and a
  // typed event's type has dots of its own (`circle.cctp.v1.MessageReceived.nonce`).
  return tx.result.events.flatMap((e) =>
    e.attributes.filter((a) => `${e.type}.${a.key}` === key).map((a) => a.value),
  );
}

function matches(tx: IncludedTx, condition: Condition): boolean {
  return valuesOf(tx, condition.key).some((value) => {
    switch (condition.op) {
      case '=':
        return condition.key === 'tx.hash'
          ? value === condition.value.toUpperCase()
          : value === condition.value;
      case 'CONTAINS':
        return value.includes(condition.value);
      default: {
        const [a, b] = [Number(value), Number(condition.value)];
        if (Number.isNaN(a) || Number.isNaN(b)) return false;
        return condition.op === '<'
          ? a < b
          : condition.op === '<='
            ? a <= b
            : condition.op === '>'
              ? a > b
              : a >= b;
      }
    }
  });
}
