import { describe, expect, it } from 'vitest';
import { main } from '../../examples/incoming-uma-approval';

describe('examples/incoming-uma-approval.ts', () => {
  it('approves the known sender and rejects the blocked one, over a real webhook endpoint', async () => {
    const lines: string[] = [];
    await main((line) => lines.push(line));
    const text = lines.join('\n');
    expect(text).toMatch(/^approval\s+Transaction:\S+\s+131313\.13 USD from \$bob@sandbox\.uma\.example: approve$/m);
    expect(text).toMatch(/^approval\s+Transaction:\S+\s+131313\.13 USD from \$mallory@sandbox\.uma\.example: reject$/m);
    expect(lines.filter((l) => l.startsWith('incoming'))).toEqual([expect.stringMatching(/ PENDING$/), expect.stringMatching(/ PENDING$/)]);
    expect(lines.filter((l) => l.startsWith('settled'))).toEqual([expect.stringMatching(/ COMPLETED$/), expect.stringMatching(/ REJECTED$/)]);
    // The approved payment's credit also moves the account's balance (INTERNAL_ACCOUNT.BALANCE_UPDATED, as production sends it).
    expect(
      lines
        .filter((l) => l.startsWith('webhook'))
        .map((l) => l.split(/\s+/)[1])
        .sort(),
    ).toEqual(['INCOMING_PAYMENT.COMPLETED', 'INCOMING_PAYMENT.FAILED', 'INTERNAL_ACCOUNT.BALANCE_UPDATED']);
    expect(text).toMatch(/^balance\s+131313\.13 USD$/m); // only the approved payment was credited
  });
});
