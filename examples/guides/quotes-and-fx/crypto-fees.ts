import { formatAmount, type Crossborder } from 'crossborder-sdk';

const USDC = { code: 'USDC', decimals: 6 };

/** Before withdrawing USDC from an internal account to a wallet on Solana: what it costs, and what arrives. */
export async function usdcWithdrawalFee(cb: Crossborder, internalAccountId: string, amount: number, destinationAddress: string) {
  const fee = await cb.crypto.estimateWithdrawalFee({ internalAccountId, currency: 'USDC', cryptoNetwork: 'SOLANA', amount, destinationAddress });
  return {
    totalFee: formatAmount({ amount: fee.totalFee, currency: USDC }, { code: true }), // network + platform fee, in USDC
    arrives: formatAmount({ amount: fee.netAmount, currency: USDC }, { code: true }),
    gas: `${fee.networkFee} (smallest unit of ${fee.networkFeeAsset})`, // for information: lamports of SOL
  };
}
