// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { main } from '../../examples/payout-fx';

describe('examples/payout-fx.ts', () => {
  it('pays exactly £500.00 from USD, settles, and reconciles', async () => {
    const lines: string[] = [];
    await main((line) => lines.push(line));
    const text = lines.join('\n');
    expect(text).toMatch(/^customer\s+Customer:\S+\s+funded 2000\.00 USD$/m);
    expect(text).toMatch(/^payee\s+ExternalAccount:\S+\s+GBP ACTIVE$/m);
    // Receiving side locked: exactly 500.00 GBP; fees are added on the sending side.
    const quote = /^quote\s+Quote:\S+\s+pay (\d+\.\d{2}) USD \(fees (\d+\.\d{2}) USD\) → 500\.00 GBP; 1 GBP = ([\d.]+) USD$/m.exec(text);
    expect(quote).not.toBeNull();
    const [, pay, fees, rate] = quote!.map(Number) as [number, number, number, number];
    expect(Math.abs((pay - fees) / rate - 500)).toBeLessThan(0.01);
    expect(text).toMatch(/^executed\s+Quote:\S+\s+PROCESSING$/m);
    expect(text).toMatch(/^payment\s+Transaction:\S+\s+COMPLETED\s+reference \S+$/m);
    expect(text).toMatch(new RegExp(`^reconcile 1 payment matched  balance ${(2000 - pay).toFixed(2)} USD$`, 'm'));
  });
});
